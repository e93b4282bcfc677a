// SPDX-License-Identifier: MIT

/// A list a route keeps (its channels, its query): one element held inline, or an array.
///
/// The publish route names one channel and usually carries a one-item query; held inline, they
/// cost no array to allocate at classification and none to free with the route. Equal lists
/// have equal elements in order, however they are held.
enum RouteList<Element: Hashable & Sendable>: Sendable {
    case one(Element)
    case many([Element])

    /// No elements.
    static var empty: RouteList { .many([]) }

    /// The elements as an array (an array is made for `one`).
    var array: [Element] {
        switch self {
        case .one(let element): [element]
        case .many(let elements): elements
        }
    }

    var count: Int {
        switch self {
        case .one: 1
        case .many(let elements): elements.count
        }
    }

    var first: Element? {
        switch self {
        case .one(let element): element
        case .many(let elements): elements.first
        }
    }

    /// The element at `index` (`0..<count`).
    subscript(index: Int) -> Element {
        switch self {
        case .one(let element):
            precondition(index == 0, "RouteList index out of range")
            return element
        case .many(let elements):
            return elements[index]
        }
    }
}
