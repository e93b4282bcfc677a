// SPDX-License-Identifier: MIT
internal import HarnessJSON

/// The command-line rule that turns user text into a message's JSON text.
public enum MessageText {
    /// `text` unchanged when it is one valid JSON text (RFC 8259, surrounding whitespace kept), otherwise `text`
    /// as a JSON string literal (so `hello` becomes `"hello"`, while `"hello"`, `42` and `{"a":1}` stay as they are).
    public static func jsonText(for text: String) -> String {
        JSONText.isValid(text) ? text : JSONText.stringLiteral(text)
    }
}
