// Package sqliteconn readies each new SQLite connection the index opens,
// at SQLite's C interface, which go-sqlite3 does not expose: the
// defensive options that make it distrust a database's schema and the
// length limit on a value (Distrust, ADR-0032), leaving the WAL unmerged
// when the repository's index closes (NoCheckpointOnClose, ADR-0021), and
// canon's FTS5 ranking functions (RegisterRank: canon_bm25, FTS5's bm25
// told each phrase's count of matching rows, and its pivoted form,
// canon_phrases, canon_near, canon_hits and canon_bm25_scored; ADR-0025,
// ADR-0035).
//
// It sits under index, whose connect hook (prepareConn) calls it, and
// never imports index. It runs no statement against the index's tables
// (those are index's), reads no file and knows nothing of git; its C
// reaches the handle of go-sqlite3's connection, which go-sqlite3 keeps
// unexported (connHandle).
package sqliteconn
