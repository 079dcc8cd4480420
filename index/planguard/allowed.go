package planguard

// Allowed are the statements of the guarded paths that may read a large
// table whole, each with the reason (keys as Normalize writes them). Keep
// it short: every entry is a cost that grows with the repository, paid on
// every call of its path.
var Allowed = map[string]string{
	// canon status (and the MCP status tool) reports the index's totals:
	// counting is its answer. At 100k documents these are the index's own
	// pages of a covering index, or one pass over links (0.3 s of CPU);
	// counts kept by the writer would make them lookups.
	"SELECT count(*) FROM docs":                                   "status: the number of documents",
	"SELECT kind, count(*) FROM docs GROUP BY kind ORDER BY kind": "status: documents by kind",
	"SELECT status, count(*) FROM links GROUP BY status":          "status: links by how they resolved",
	"SELECT count(*) FROM chunks":                                 "status: the number of sections",
	"SELECT count(*) FROM skipped":                                "status: the number of skipped files",
	"SELECT reason FROM skipped WHERE reason LIKE ?":              "status: which skipped files are links to documents canon indexes itself",
	// canon ready (and the MCP ready tool) ranks every open item by what
	// blocks it: its input is the whole graph of items and their
	// blocking edges, read once.
	"SELECT d.key, d.ident, d.path, d.kind, d.title, d.state, d.id, coalesce(CAST(json_extract(d.fm, '$.priority') AS TEXT), ''), coalesce(json_extract(d.fm, '$.assignee', '$.owner', '$.assignees'), '[]'), d.type = '' AND d.ident = '' FROM docs d": "ready: every item, to rank the open ones",
	"SELECT src, dst, type FROM links WHERE status = 'ok' AND dst IS NOT NULL AND dst <> src AND type IN (?, …)":                                                                                                                                        "ready: every blocking edge between items",
	// The stat walk (Store.Drift, Unread, Reconcile): the working tree
	// against what the index read of each file. It stats every file, so
	// reading every row is its own size; it is read once per write of the
	// index, then from the stat cache beside it (ADR-0081).
	"SELECT path, size, mtime, 1 FROM docs UNION ALL SELECT path, size, mtime, 0 FROM skipped ORDER BY 1": "the stat walk: every file's size and time",
	// check's follows: whether any document has a Kano-shaped id decides
	// the schema of an item whose own id is not (a LIKE of an infix has
	// no index). Once per check, only for such an item, and it stops at
	// the first Kano id: a Kano repository reads a few entries, another
	// the ids' index once.
	"SELECT ident FROM docs WHERE ident LIKE ? OR ident LIKE ? OR ident LIKE ? OR ident LIKE ? OR ident LIKE ?": "check: is this a Kano repository (until the first Kano id)",
}

// WholeCheck are the statements canon check --all runs that read a large
// table whole, each with the reason: it validates every document, so it
// reads every document, link and stored problem once (and the blocking
// and parent edges once, as a check of 200 or more documents does too,
// rather than one lookup per edge: the blocking edges' statement is
// ready's, in Allowed). Not in Allowed: no hook, staged check
// or MCP tool may run them on a few documents.
var WholeCheck = map[string]string{
	"SELECT id, path, key, ident, ident_line, uid, uid_line, kind, type, fm, fm_pos, disables, title, state FROM docs ORDER BY path": "check --all: every document",
	"SELECT src, type, field, form, raw, anchor, status, line, col, coalesce(dst, 0) FROM links ORDER BY src, seq":                   "check --all: every link",
	"SELECT path, line, col, rule, message FROM problems":                                                                            "check --all: every problem the parser stored",
	"SELECT src, dst FROM links WHERE type = 'parent' AND status = 'ok' ORDER BY src, seq":                                           "check of many documents: every parent edge, to follow the chains without a lookup per step",
	"SELECT path FROM docs UNION SELECT path FROM skipped ORDER BY 1":                                                                "check --all: the files it looked at, for --json",
}
