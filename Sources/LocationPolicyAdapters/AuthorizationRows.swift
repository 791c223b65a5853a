import Foundation
import GRDB
import LocationProtocol

/// One user's `AuthorizationDatabase` in and out of the tables of ``AuthorizationSchema``.
///
/// Every value read is checked for its SQLite type and range: a value that does not fit fails the whole
/// read with ``Corruption`` (GRDB's convenience accessors would coerce text to 0 or trap instead).
enum AuthorizationRows {
    /// The stored data does not make an authorization database.
    struct Corruption: Error {
        var reason: String
    }

    static func load(_ db: Database, user: UInt32) throws -> AuthorizationDatabase {
        var database = AuthorizationDatabase(servicesEnabled: try servicesEnabled(db))
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT \(AppColumn.selectList) FROM apps WHERE uid = ?"), arguments: [Int64(user)])
        while let row = try rows.next() {
            let (id, record) = try decode(row)
            database.apps[id] = record
        }
        return database
    }

    /// Writes what differs between `old` (as loaded) and `new`, for `user` only.
    static func save(_ new: AuthorizationDatabase, replacing old: AuthorizationDatabase, _ db: Database, user: UInt32) throws {
        for (id, _) in old.apps where new.apps[id] == nil {
            try db.cachedStatement(sql: "DELETE FROM apps WHERE uid = ? AND app_id = ?").execute(arguments: [Int64(user), id])
        }
        for (id, record) in new.apps where old.apps[id] != record {
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO apps (
                    uid, app_id, status, accuracy, always_request_used, allow_once_pid, allow_once_start_time,
                    temporary_full_accuracy_purpose_key, temporary_full_accuracy_pid,
                    temporary_full_accuracy_start_time, display_name, executable_path, updated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    Int64(user), id, Int64(record.status.rawValue), Int64(record.accuracy.rawValue),
                    record.alwaysRequestUsed ? 1 : 0,
                    record.allowOnce.map { Int64($0.pid) },
                    record.allowOnce.map { Int64(bitPattern: $0.startTime) },
                    record.temporaryFullAccuracy?.purposeKey,
                    record.temporaryFullAccuracy.map { Int64($0.process.pid) },
                    record.temporaryFullAccuracy.map { Int64(bitPattern: $0.process.startTime) },
                    record.displayName, record.executablePath, record.updated.timeIntervalSince1970,
                ])
        }
        if new.servicesEnabled != old.servicesEnabled {
            try db.cachedStatement(sql: "UPDATE settings SET value = ? WHERE key = ?")
                .execute(arguments: [new.servicesEnabled ? 1 : 0, AuthorizationSchema.servicesEnabledKey])
        }
        try db.cachedStatement(sql: "UPDATE settings SET value = value + 1 WHERE key = ?")
            .execute(arguments: [AuthorizationSchema.generationKey])
    }

    static func generation(_ db: Database) throws -> Int64 {
        try setting(AuthorizationSchema.generationKey, db)
    }

    /// The database as it reads back once stored: dates keep what a REAL of seconds since 1970 keeps.
    /// Comparing normalised values is what tells "changed" from "written again unchanged".
    static func normalized(_ database: AuthorizationDatabase) -> AuthorizationDatabase {
        var result = database
        for (id, record) in database.apps {
            var record = record
            record.updated = Date(timeIntervalSince1970: record.updated.timeIntervalSince1970)
            result.apps[id] = record
        }
        return result
    }

    // MARK: - Checked decoding

    private static func servicesEnabled(_ db: Database) throws -> Bool {
        let value = try setting(AuthorizationSchema.servicesEnabledKey, db)
        guard value == 0 || value == 1 else {
            throw Corruption(reason: "setting \(AuthorizationSchema.servicesEnabledKey) is \(value), expected 0 or 1")
        }
        return value == 1
    }

    private static func setting(_ key: String, _ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?")
        guard let row = try Row.fetchOne(statement, arguments: [key]) else {
            throw Corruption(reason: "setting \(key) is missing")
        }
        return try Column(row, 0, "value", of: "setting \(key)").integer()
    }

    private static func decode(_ row: Row) throws -> (String, AppRecord) {
        let id = try Column(row, .appID, of: "an app").text()
        let context = "app \(id)"
        let statusValue = try Column(row, .status, of: context).integer()
        guard let status = Int32(exactly: statusValue).flatMap(AuthorizationStatus.init(rawValue:)) else {
            throw Corruption(reason: "\(context): status \(statusValue) is not an authorization status")
        }
        let accuracyValue = try Column(row, .accuracy, of: context).integer()
        guard let accuracy = Int(exactly: accuracyValue).flatMap(AccuracyAuthorization.init(rawValue:)) else {
            throw Corruption(reason: "\(context): accuracy \(accuracyValue) is not an accuracy authorization")
        }
        let allowOnce = try stamp(
            pid: Column(row, .allowOncePID, of: context), startTime: Column(row, .allowOnceStartTime, of: context),
            context: context)
        let temporary: TemporaryFullAccuracy?
        switch (try Column(row, .temporaryPurposeKey, of: context).optionalText(),
                try stamp(pid: Column(row, .temporaryPID, of: context),
                          startTime: Column(row, .temporaryStartTime, of: context), context: context)) {
        case (nil, nil):
            temporary = nil
        case let (purposeKey?, process?):
            temporary = TemporaryFullAccuracy(purposeKey: purposeKey, process: process)
        default:
            throw Corruption(reason: "\(context): temporary full accuracy needs both a purpose key and a process")
        }
        let record = AppRecord(
            status: status, accuracy: accuracy,
            alwaysRequestUsed: try Column(row, .alwaysRequestUsed, of: context).boolean(),
            allowOnce: allowOnce, temporaryFullAccuracy: temporary,
            displayName: try Column(row, .displayName, of: context).text(),
            executablePath: try Column(row, .executablePath, of: context).text(),
            updated: Date(timeIntervalSince1970: try Column(row, .updated, of: context).real()))
        return (id, record)
    }

    /// A process stamp from a pid and start-time pair of columns, both null or both set.
    private static func stamp(pid: Column, startTime: Column, context: String) throws -> ProcessStamp? {
        switch (try pid.optionalInteger(), try startTime.optionalInteger()) {
        case (nil, nil):
            return nil
        case let (value?, start?):
            guard let value = Int32(exactly: value), value > 0 else {
                throw Corruption(reason: "\(context): \(pid.name) \(value) is not a process id")
            }
            return ProcessStamp(pid: value, startTime: UInt64(bitPattern: start))
        default:
            throw Corruption(reason: "\(context): \(pid.name) and \(startTime.name) must be both set or both null")
        }
    }

    /// The columns `load` selects, in order: values are read by position (a name lookup per value
    /// would cost more than the rest of a read).
    private enum AppColumn: Int, CaseIterable {
        case appID, status, accuracy, alwaysRequestUsed, allowOncePID, allowOnceStartTime
        case temporaryPurposeKey, temporaryPID, temporaryStartTime, displayName, executablePath, updated

        var name: String {
            switch self {
            case .appID: "app_id"
            case .status: "status"
            case .accuracy: "accuracy"
            case .alwaysRequestUsed: "always_request_used"
            case .allowOncePID: "allow_once_pid"
            case .allowOnceStartTime: "allow_once_start_time"
            case .temporaryPurposeKey: "temporary_full_accuracy_purpose_key"
            case .temporaryPID: "temporary_full_accuracy_pid"
            case .temporaryStartTime: "temporary_full_accuracy_start_time"
            case .displayName: "display_name"
            case .executablePath: "executable_path"
            case .updated: "updated"
            }
        }

        static let selectList = allCases.map(\.name).joined(separator: ", ")
    }

    /// One column of a fetched row, read with its SQLite type checked.
    private struct Column {
        let value: DatabaseValue
        let name: String
        let context: String

        init(_ row: Row, _ index: Int, _ name: String, of context: String) throws {
            self.value = try row.decode(DatabaseValue.self, atIndex: index)
            self.name = name
            self.context = context
        }

        init(_ row: Row, _ column: AppColumn, of context: String) throws {
            try self.init(row, column.rawValue, column.name, of: context)
        }

        func integer() throws -> Int64 {
            guard let value = try optionalInteger() else { throw mismatch("an integer") }
            return value
        }

        func optionalInteger() throws -> Int64? {
            switch value.storage {
            case .null: return nil
            case .int64(let integer): return integer
            default: throw mismatch("an integer")
            }
        }

        func boolean() throws -> Bool {
            switch try integer() {
            case 0: return false
            case 1: return true
            default: throw mismatch("0 or 1")
            }
        }

        func real() throws -> Double {
            guard let value = try optionalReal() else { throw mismatch("a number") }
            return value
        }

        func optionalReal() throws -> Double? {
            switch value.storage {
            case .null: return nil
            case .double(let double) where double.isFinite: return double
            case .int64(let integer): return Double(integer)
            default: throw mismatch("a finite number")
            }
        }

        func text() throws -> String {
            guard let value = try optionalText() else { throw mismatch("text") }
            return value
        }

        func optionalText() throws -> String? {
            switch value.storage {
            case .null: return nil
            case .string(let string): return string
            default: throw mismatch("text")
            }
        }

        private func mismatch(_ expected: String) -> Corruption {
            let found = switch value.storage {
            case .null: "null"
            case .int64(let integer): "\(integer)"
            case .double(let double): "\(double)"
            case .string: "text"
            case .blob: "a blob"
            }
            return Corruption(reason: "\(context): \(name) is \(found), expected \(expected)")
        }
    }
}
