import Foundation

/// The report files of one set, by name: read from a report folder, or made in memory.
package struct ReportFiles: Sendable {
    /// Each report file present, by name (``ReportFile/name``), with its bytes.
    package var contents: [String: [UInt8]]

    /// A set made of these files; names that are not report files are never compared.
    package init(_ contents: [String: [UInt8]]) {
        self.contents = contents
    }

    /// The report files in `folder` (the other files in it are left alone).
    ///
    /// - Throws: ``ReportFolderError`` when the folder is missing or not a folder, or a
    ///   report file in it cannot be read.
    package init(folder: String) throws(ReportFolderError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw ReportFolderError(path: folder, reason: "no such folder")
        }
        guard isFolder.boolValue else { throw ReportFolderError(path: folder, reason: "not a folder") }
        contents = [:]
        for file in ReportFile.allCases {
            let path = (folder as NSString).appendingPathComponent(file.name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            guard !isFolder.boolValue else { throw ReportFolderError(path: path, reason: "a folder, not a report") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ReportFolderError(path: path, reason: "cannot be read")
            }
            contents[file.name] = [UInt8](data)
        }
    }

    /// The bytes of `file`, or nil when the set has none.
    package subscript(file: ReportFile) -> [UInt8]? { contents[file.name] }
}

/// A report folder, or a file in it, that could not be read.
package struct ReportFolderError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "\(path): \(reason)" }
}
