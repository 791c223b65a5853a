import GRDB

/// The tables of `authorization.sqlite`, created and upgraded by GRDB's migrator.
///
/// One file may hold several users (`locationd`'s system instance): apps are keyed by (uid, app id).
/// The settings are device-wide: the Location Services switch, and `generation`, a counter every write
/// bumps so that pollers notice changes that file times are too coarse to show. Tables are STRICT and
/// checked, so a value that reading would refuse cannot be written (an update that tries fails and
/// leaves the store as it was); reading still checks every value, because the file may come from anywhere.
enum AuthorizationSchema {
    static let servicesEnabledKey = "location_services_enabled"
    static let generationKey = "generation"

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: apps and settings") { db in
            try db.execute(sql: """
                CREATE TABLE apps (
                    uid INTEGER NOT NULL,
                    app_id TEXT NOT NULL,
                    status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 4),
                    accuracy INTEGER NOT NULL CHECK (accuracy IN (0, 1)),
                    always_request_used INTEGER NOT NULL CHECK (always_request_used IN (0, 1)),
                    allow_once_pid INTEGER CHECK (allow_once_pid > 0),
                    allow_once_start_time INTEGER,
                    temporary_full_accuracy_purpose_key TEXT,
                    -- seconds since 1970; finite (no infinity)
                    temporary_full_accuracy_expires REAL CHECK (abs(temporary_full_accuracy_expires) < 1e12),
                    display_name TEXT NOT NULL,
                    executable_path TEXT NOT NULL,
                    updated REAL NOT NULL CHECK (abs(updated) < 1e12), -- seconds since 1970
                    PRIMARY KEY (uid, app_id),
                    CHECK ((allow_once_pid IS NULL) = (allow_once_start_time IS NULL)),
                    CHECK ((temporary_full_accuracy_purpose_key IS NULL) = (temporary_full_accuracy_expires IS NULL))
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                INSERT INTO settings (key, value) VALUES ('\(servicesEnabledKey)', 1), ('\(generationKey)', 0);
                """)
        }
        // A temporary full accuracy grant lasts as long as the process that asked (Apple: until the app
        // is no longer in use), not until a time: the expiry column becomes the process's stamp. SQLite
        // cannot drop a column that a table check names, so the table is made anew. A dated grant
        // cannot be tied to a process and is dropped: the app asks again (no build ever wrote one).
        migrator.registerMigration("v2: temporary full accuracy bound to its process") { db in
            try db.execute(sql: """
                CREATE TABLE apps_v2 (
                    uid INTEGER NOT NULL,
                    app_id TEXT NOT NULL,
                    status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 4),
                    accuracy INTEGER NOT NULL CHECK (accuracy IN (0, 1)),
                    always_request_used INTEGER NOT NULL CHECK (always_request_used IN (0, 1)),
                    allow_once_pid INTEGER CHECK (allow_once_pid > 0),
                    allow_once_start_time INTEGER,
                    temporary_full_accuracy_purpose_key TEXT,
                    temporary_full_accuracy_pid INTEGER CHECK (temporary_full_accuracy_pid > 0),
                    temporary_full_accuracy_start_time INTEGER,
                    display_name TEXT NOT NULL,
                    executable_path TEXT NOT NULL,
                    updated REAL NOT NULL CHECK (abs(updated) < 1e12), -- seconds since 1970
                    PRIMARY KEY (uid, app_id),
                    CHECK ((allow_once_pid IS NULL) = (allow_once_start_time IS NULL)),
                    CHECK ((temporary_full_accuracy_purpose_key IS NULL) = (temporary_full_accuracy_pid IS NULL)),
                    CHECK ((temporary_full_accuracy_pid IS NULL) = (temporary_full_accuracy_start_time IS NULL))
                ) STRICT, WITHOUT ROWID;
                INSERT INTO apps_v2 (
                    uid, app_id, status, accuracy, always_request_used, allow_once_pid, allow_once_start_time,
                    display_name, executable_path, updated)
                SELECT uid, app_id, status, accuracy, always_request_used, allow_once_pid, allow_once_start_time,
                    display_name, executable_path, updated
                FROM apps;
                DROP TABLE apps;
                ALTER TABLE apps_v2 RENAME TO apps;
                """)
        }
        return migrator
    }()

    /// What a database file holds, as far as this build can tell.
    enum State: Equatable {
        /// No table at all: a new (or zero-length) file. Reads as an empty database.
        case empty
        /// Every migration this build knows has run, and no other.
        case current
        /// Written by an older build: the missing migrations can run.
        case behind
        /// Migrated by a newer build (these migrations are unknown here): never read or written.
        case newer(unknownMigrations: [String])
        /// Tables, but not ours.
        case foreign
    }

    /// Reads the applied migrations from the file itself (not GRDB's per-connection schema cache: another
    /// process may have changed it). Runs on every read, so the usual case is one cached statement;
    /// `sqlite_master` is consulted only when there is no migrations table.
    static func state(_ db: Database) throws -> State {
        let query = "SELECT identifier FROM grdb_migrations"
        let applied: Set<String>
        do {
            applied = Set(try String.fetchAll(db.cachedStatement(sql: query)))
        } catch {
            let tables = try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            if tables.isEmpty { return .empty }
            if !tables.contains("grdb_migrations") { return .foreign }
            // Another process created the table between the two statements (the first one failed
            // before the read transaction took its lock); it is there now, so ask again.
            applied = Set(try String.fetchAll(db.cachedStatement(sql: query)))
        }
        let known = Set(migrator.migrations)
        let unknown = applied.subtracting(known)
        if !unknown.isEmpty { return .newer(unknownMigrations: unknown.sorted()) }
        return applied == known ? .current : .behind
    }
}
