// SPDX-License-Identifier: MIT

/// Classification of the file-sharing paths (spec pubnub-modern §3.1) and of the mock's own file
/// storage, which stands in for the cloud storage the live service hands out URLs of.
///
/// * `/v1/files/{sub}/channels/{ch}/generate-upload-url` (POST), `…/files` (GET list),
///   `…/files/{id}/{name}` (GET → 307, DELETE);
/// * `/v1/files/publish-file/{pub}/{sub}/0/{ch}/0/{json}` (GET);
/// * `/file-storage/{sub}/{ch}` (POST multipart upload) and `/file-storage/{sub}/{ch}/{id}/{name}` (GET bytes).
enum FileRoutes {
    /// The path prefix of the mock's storage (upload and download URLs).
    static let storagePrefix = "/file-storage/"

    /// The file endpoints, for fault plans' `files` shorthand and the docs.
    static let endpoints: [PubNubEndpoint] = [
        .generateUploadURL, .storageUpload, .publishFile, .listFiles, .getFile, .storageDownload, .deleteFile,
    ]

    /// Classifies `/v1/files/…` (`s` without the leading `v1`, `files`).
    static func classifyFiles(_ s: [String], method: String, route base: PubNubRoute) -> Result<PubNubRoute, RouteError> {
        var route = base
        let isRead = method == "GET" || method == "HEAD"
        if s.first == "publish-file" {
            // publish-file/{pub}/{sub}/0/{ch}/0/{json}
            guard s.count == 7, isRead else { return .failure(.notFound) }
            route.endpoint = .publishFile
            route.publishKey = s[1]
            route.subscribeKey = s[2]
            route.channels = [s[4]]
            route.message = s[6]
            return .success(route)
        }
        guard s.count >= 4, s[1] == "channels" else { return .failure(.notFound) }
        route.subscribeKey = s[0]
        route.channels = [s[2]]
        switch (s.count, method) {
        case (4, "POST") where s[3] == "generate-upload-url":
            route.endpoint = .generateUploadURL
        case (4, _) where s[3] == "files" && isRead:
            route.endpoint = .listFiles
        case (6, _) where s[3] == "files" && isRead:
            route.endpoint = .getFile
            route.fileID = s[4]
            route.fileName = s[5]
        case (6, "DELETE") where s[3] == "files":
            route.endpoint = .deleteFile
            route.fileID = s[4]
            route.fileName = s[5]
        default:
            return .failure(.notFound)
        }
        return .success(route)
    }

    /// Classifies `/file-storage/…` (`s` without the leading `file-storage`).
    static func classifyStorage(_ s: [String], method: String, route base: PubNubRoute) -> Result<PubNubRoute, RouteError> {
        var route = base
        switch (s.count, method) {
        case (2, "POST"):
            route.endpoint = .storageUpload
        case (4, "GET"), (4, "HEAD"):
            route.endpoint = .storageDownload
            route.fileID = s[2]
            route.fileName = s[3]
        default:
            return .failure(.notFound)
        }
        route.subscribeKey = s[0]
        route.channels = [s[1]]
        return .success(route)
    }
}
