package index

import "github.com/canon-md/canon/index/internal/fulltext"

// SchemaVersion is stored in PRAGMA user_version. A database with another
// version is migrated; the content tables are derived, so every migration so
// far is "drop and rebuild".
const SchemaVersion = 28

const metaDDL = `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`

// tableDDL creates the content tables without their secondary indexes; a full
// build creates those after loading, which is much faster than maintaining
// them row by row.
const tableDDL = `
CREATE TABLE docs (
	id          INTEGER PRIMARY KEY,
	path        TEXT NOT NULL UNIQUE,   -- repo-relative, slash separated
	oid         TEXT NOT NULL,          -- git blob id of the indexed content
	size        INTEGER NOT NULL,
	mtime       INTEGER NOT NULL,       -- ns, for the stat walk
	natural_key TEXT NOT NULL,          -- uid, else id, else path
	key         TEXT NOT NULL,          -- natural_key, or path when two documents share it
	ident       TEXT NOT NULL,          -- frontmatter id
	ident_line  INTEGER NOT NULL,       -- where id: is written (0 when absent)
	uid         TEXT NOT NULL,
	uid_line    INTEGER NOT NULL,
	type        TEXT NOT NULL,          -- frontmatter type as written
	kind        TEXT NOT NULL,
	title       TEXT NOT NULL,
	state       TEXT NOT NULL,
	format      TEXT NOT NULL,          -- yaml, toml or ''
	fm          TEXT NOT NULL,          -- frontmatter as JSON, source order
	fm_pos      TEXT NOT NULL,          -- {"field": [line, col]} of top-level values
	disables    TEXT NOT NULL,          -- inline opt-outs as JSON, '' for none
	anchors     TEXT NOT NULL,          -- id and name attributes of HTML tags, space separated
	body_line   INTEGER NOT NULL,
	links_sig   INTEGER NOT NULL,       -- hash of the outgoing links as written (see inplace.go)
	generated   TEXT NOT NULL,          -- why a tool wrote it (generated.go), '' when people did
	sidecar     TEXT NOT NULL           -- blob id of the sidecar whose fields it took (kep.yaml), '' for none
);
CREATE TABLE skipped (
	path   TEXT PRIMARY KEY,
	oid    TEXT NOT NULL,
	size   INTEGER NOT NULL,
	mtime  INTEGER NOT NULL,
	reason TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE aliases (
	term TEXT NOT NULL,                 -- uid:, id:, stem:, num:, was:, dir:, title: (paths are found through their stem)
	doc  INTEGER NOT NULL REFERENCES docs(id) ON DELETE CASCADE
);
CREATE TABLE links (
	id     INTEGER PRIMARY KEY,
	src    INTEGER NOT NULL REFERENCES docs(id) ON DELETE CASCADE,
	seq    INTEGER NOT NULL,            -- order within the source document
	type   TEXT NOT NULL,               -- parent, relates, blocks, ..., references
	field  TEXT NOT NULL,               -- frontmatter field; '' for a body link
	form   TEXT NOT NULL,               -- ref, md, image, wiki, embed, url
	raw    TEXT NOT NULL,               -- target as written, without #anchor
	anchor TEXT NOT NULL,
	line   INTEGER NOT NULL,
	col    INTEGER NOT NULL,
	match  TEXT NOT NULL,               -- lookup key, see resolve.go
	dst    INTEGER,                     -- resolved document
	status TEXT NOT NULL                -- ok, self, dangling, ambiguous, external, file
);
CREATE TABLE chunks (
	id       INTEGER PRIMARY KEY,       -- rowid of chunks_fts too
	doc      INTEGER NOT NULL REFERENCES docs(id) ON DELETE CASCADE,
	seq      INTEGER NOT NULL,
	slug     TEXT NOT NULL,             -- '' for the preamble
	heading  TEXT NOT NULL,
	level    INTEGER NOT NULL,
	line     INTEGER NOT NULL,
	end_line INTEGER NOT NULL,
	hash     INTEGER NOT NULL           -- hash of its chunks_fts row (see inplace.go)
);
CREATE VIRTUAL TABLE chunks_fts USING fts5(` + fulltext.FTSColumns + `);
CREATE TABLE refs (
	name       TEXT PRIMARY KEY,        -- refs/heads/x, refs/remotes/o/x, worktrees/NAME/HEAD
	oid        TEXT NOT NULL,           -- the commit it points at
	base       TEXT NOT NULL,           -- its merge base with base_head ('' for none)
	base_head  TEXT NOT NULL,           -- the indexed HEAD the base was found for
	changed    INTEGER NOT NULL,        -- documents that differ between base and oid
	summarised INTEGER NOT NULL,        -- 1: too many to load, ref_docs holds none of them
	skip       TEXT NOT NULL,           -- why it is not read ('' when it is): not a commit, too many bytes
	author     TEXT NOT NULL,           -- of the commit oid
	committed  INTEGER NOT NULL,        -- its commit time, unix seconds
	updated    INTEGER NOT NULL,        -- when the row was last brought up to date, unix ns
	trunk      INTEGER NOT NULL,        -- the trunk_docs it shares (0: none), seen at its anchor seq
	seq        INTEGER NOT NULL,
	trunk_commit TEXT NOT NULL,         -- the ref's commit and author when it took the trunk's rows
	trunk_author TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE ref_docs (
	ref       TEXT NOT NULL,            -- refs.name
	path      TEXT NOT NULL,
	change    TEXT NOT NULL,            -- added, changed, deleted (from the merge base); same: hides a trunk row
	oid       TEXT NOT NULL,            -- blob on the ref, '' when deleted
	base_oid  TEXT NOT NULL,            -- blob at the merge base, '' when added
	ident     TEXT NOT NULL,            -- the ref's version: frontmatter id ...
	kind      TEXT NOT NULL,
	title     TEXT NOT NULL,
	state     TEXT NOT NULL,
	assignee  TEXT NOT NULL,
	edges     TEXT NOT NULL,            -- frontmatter edges as JSON [[type, raw], ...]
	commit_id TEXT NOT NULL,            -- the ref's commit when this row last changed
	author    TEXT NOT NULL,            -- that commit's author
	skip      TEXT NOT NULL,            -- why the ref's version was not read ('' when it was: max_file_size)
	fm_bytes  INTEGER NOT NULL,         -- the size of its frontmatter (what YAML parsing costs)
	fm        TEXT NOT NULL,            -- its frontmatter as JSON, source order ('' when not read): what branches compares
	PRIMARY KEY (ref, path)
) WITHOUT ROWID;
CREATE TABLE ref_blobs (
	oid       TEXT PRIMARY KEY,         -- a blob an overlay row read: what the row takes of it
	skip      TEXT NOT NULL,
	doc       INTEGER NOT NULL,
	ident     TEXT NOT NULL,
	title     TEXT NOT NULL,
	assignee  TEXT NOT NULL,
	edges     TEXT NOT NULL,
	fm_bytes  INTEGER NOT NULL,
	fm        TEXT NOT NULL,
	size      INTEGER NOT NULL,         -- the blob's
	type      TEXT NOT NULL,            -- markdown.PathFields
	field_id  TEXT NOT NULL,
	state     TEXT NOT NULL,
	section   TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE trunk_docs (
	trunk     INTEGER NOT NULL,         -- refs.trunk: rows shared by refs with one merge base
	path      TEXT NOT NULL,
	lo        INTEGER NOT NULL,         -- the row is a ref's when lo <= refs.seq < hi
	hi        INTEGER NOT NULL,
	change    TEXT NOT NULL,            -- the columns of ref_docs, from the merge base
	oid       TEXT NOT NULL,
	base_oid  TEXT NOT NULL,
	ident     TEXT NOT NULL,
	kind      TEXT NOT NULL,
	title     TEXT NOT NULL,
	state     TEXT NOT NULL,
	assignee  TEXT NOT NULL,
	edges     TEXT NOT NULL,
	skip      TEXT NOT NULL,
	fm_bytes  INTEGER NOT NULL,
	fm        TEXT NOT NULL,
	PRIMARY KEY (trunk, path, lo)
) WITHOUT ROWID;
CREATE TABLE problems (
	doc      INTEGER REFERENCES docs(id) ON DELETE CASCADE,
	path     TEXT NOT NULL,
	line     INTEGER NOT NULL,
	col      INTEGER NOT NULL,
	rule     TEXT NOT NULL,
	severity TEXT NOT NULL,
	message  TEXT NOT NULL
);
`

// indexDDL: no partial index may serve a query with a bound parameter
// (SQLite cannot prove "match = ?" implies "match <> ”"), so the indexes
// that updates look up by parameter are whole.
const indexDDL = `
CREATE INDEX IF NOT EXISTS docs_key ON docs(key);
CREATE INDEX IF NOT EXISTS docs_natural_key ON docs(natural_key);
CREATE INDEX IF NOT EXISTS docs_ident ON docs(ident);
CREATE INDEX IF NOT EXISTS docs_uid ON docs(uid);
CREATE INDEX IF NOT EXISTS docs_scope ON docs(json_extract(fm, '$.scope'));
CREATE INDEX IF NOT EXISTS docs_kind_state ON docs(kind, state);
CREATE INDEX IF NOT EXISTS docs_kind ON docs(kind);
CREATE INDEX IF NOT EXISTS aliases_term ON aliases(term);
CREATE INDEX IF NOT EXISTS aliases_doc ON aliases(doc);
CREATE INDEX IF NOT EXISTS links_src ON links(src);
CREATE INDEX IF NOT EXISTS links_dst ON links(dst);
CREATE INDEX IF NOT EXISTS links_match ON links(match);
CREATE INDEX IF NOT EXISTS links_pending ON links(id) WHERE status = '';
CREATE INDEX IF NOT EXISTS links_wiki ON links(status) WHERE form IN ('wiki', 'embed');
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc);
CREATE INDEX IF NOT EXISTS problems_doc ON problems(doc);
CREATE INDEX IF NOT EXISTS ref_docs_ident ON ref_docs(ident);
CREATE INDEX IF NOT EXISTS ref_docs_path ON ref_docs(path);
CREATE INDEX IF NOT EXISTS docs_series ON docs(` + seriesPrefix + `, ` + seriesNumber + `, path);
CREATE INDEX IF NOT EXISTS docs_series_width ON docs(` + seriesPrefix + `, length(ident));
CREATE INDEX IF NOT EXISTS docs_kind_series ON docs(lower(kind), rtrim(ident, '0123456789'), length(ident));
CREATE INDEX IF NOT EXISTS docs_named ON docs(` + fileName + `) WHERE ` + namedPath + `;
`
