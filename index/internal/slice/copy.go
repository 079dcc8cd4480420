package slice

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// Subsets: a workset (docs/worksets.md) keeps some documents of the index in a
// database of its own with the same schema, so that everything that reads
// an index (Find, Search, Show, the graph package) reads a workset too. The
// schema stays in the store, next to the code that writes it: a workset
// database is opened like any index (index.OpenSlice), and filled by
// CopyFrom.

// SubsetOptions adjust CopyFrom.
type SubsetOptions struct {
	// Replace empties the content tables first: the copy becomes the
	// database's whole content.
	Replace bool
}

// CopyFrom copies from the index database at srcPath the rows of the
// documents with the given node keys (docs, aliases, links, chunks with
// their text, problems) into the database h holds (s below), in one
// transaction. then, when not nil, runs
// inside that transaction, so that the caller's own tables change
// atomically with the rows. Documents s already holds (by key) are kept as
// they are; keys srcPath does not hold are ignored. It returns how many
// documents it copied.
//
// Copies get fresh row ids. A resolved link points at the copy of its
// target when s holds one and has no target row (dst NULL, status kept)
// otherwise; links already in s whose target this copy adds are pointed at
// it when their source document is unchanged in srcPath.
func CopyFrom(ctx context.Context, h *sqlstore.Handle, srcPath string, keys []string, opt SubsetOptions, then func(*sql.Tx) error) (int, error) {
	if _, err := os.Stat(srcPath); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("copy documents: the index %s does not exist", srcPath)
		}
		return 0, err
	}
	conn, err := h.DB.Conn(ctx)
	if err != nil {
		return 0, h.Friendly(err)
	}
	defer conn.Close()
	// ATTACH cannot run inside a transaction; the connection is ours until
	// Close, and goes back to the pool detached.
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS src`, srcPath); err != nil {
		return 0, fmt.Errorf("attach %s: %w", srcPath, err)
	}
	defer func() {
		if _, err := conn.ExecContext(context.Background(), `DETACH DATABASE src`); err != nil {
			sqlstore.DiscardConn(conn) // still attached: the next ATTACH on it would fail
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, h.Friendly(err)
	}
	n, err := copySubset(ctx, tx, keys, opt)
	if err == nil && then != nil {
		err = then(tx)
	}
	// Temporary tables live as long as the connection: drop them either way.
	for _, t := range []string{"subset_keys", "subset_docs", "subset_chunks"} {
		if _, derr := tx.ExecContext(ctx, `DROP TABLE IF EXISTS temp.`+t); derr != nil && err == nil {
			err = fmt.Errorf("copy documents: drop temp.%s: %w", t, derr)
		}
	}
	if err != nil {
		tx.Rollback()
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit subset copy: %w", h.Friendly(err))
	}
	return n, nil
}

// copySubset copies the documents with the given keys from the attached
// database src into main through tx, in steps: choose the documents and
// their new row ids (choose), then copy their rows, aliases, links,
// sections and problems. It returns how many documents it copied.
func copySubset(ctx context.Context, tx *sql.Tx, keys []string, opt SubsetOptions) (int, error) {
	c := &subsetCopy{ctx: ctx, tx: tx, opt: opt}
	n, err := c.choose(keys)
	if err != nil || n == 0 {
		return 0, err
	}
	for _, step := range []func() error{c.docs, c.aliases, c.links, c.chunks, c.problems} {
		if err := step(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// subsetCopy is one copy of documents from src into main, inside tx.
type subsetCopy struct {
	ctx context.Context
	tx  *sql.Tx
	opt SubsetOptions
}

// exec runs one statement of the copy.
func (c *subsetCopy) exec(q string) error {
	if _, err := c.tx.ExecContext(c.ctx, q); err != nil {
		return fmt.Errorf("copy documents: %w", err)
	}
	return nil
}

// cols lists table's columns without the skipped ones (columns).
func (c *subsetCopy) cols(table string, skip ...string) (string, error) {
	return columns(c.ctx, c.tx, table, skip...)
}

// choose empties main first when the copy replaces its content, and lists
// in temp.subset_docs the documents of src with the given keys that main
// does not hold, each with its new row id: how many there are.
func (c *subsetCopy) choose(keys []string) (int, error) {
	if c.opt.Replace {
		for _, t := range sqlstore.ContentTables {
			if err := c.exec(`DELETE FROM main.` + t); err != nil {
				return 0, err
			}
		}
	}
	for _, t := range []string{"subset_keys", "subset_docs", "subset_chunks"} {
		if err := c.exec(`DROP TABLE IF EXISTS temp.` + t); err != nil {
			return 0, err
		}
	}
	if err := c.exec(`CREATE TEMP TABLE subset_keys (key TEXT PRIMARY KEY) WITHOUT ROWID`); err != nil {
		return 0, err
	}
	ins, err := c.tx.PrepareContext(c.ctx, `INSERT OR IGNORE INTO temp.subset_keys(key) VALUES (?)`)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if _, err := ins.ExecContext(c.ctx, k); err != nil {
			ins.Close()
			return 0, err
		}
	}
	ins.Close()
	// New row ids follow the largest in s, in key order, so that the same
	// copy always numbers the same way.
	err = c.exec(`CREATE TEMP TABLE subset_docs AS
		SELECT d.id AS old, (SELECT coalesce(max(id), 0) FROM main.docs) + row_number() OVER (ORDER BY d.key, d.path) AS new
		FROM src.docs d JOIN temp.subset_keys k ON k.key = d.key
		WHERE NOT EXISTS (SELECT 1 FROM main.docs m WHERE m.key = d.key)`)
	if err != nil {
		return 0, err
	}
	var n int
	err = c.tx.QueryRowContext(c.ctx, `SELECT count(*) FROM temp.subset_docs`).Scan(&n)
	return n, err
}

// docs copies the chosen documents' rows under their new ids.
func (c *subsetCopy) docs() error {
	docCols, err := c.cols("docs", "id")
	if err != nil {
		return err
	}
	return c.exec(`INSERT INTO main.docs (id, ` + docCols + `) SELECT m.new, ` + prefixed("d.", docCols) + `
		FROM src.docs d JOIN temp.subset_docs m ON m.old = d.id`)
}

// aliases copies the chosen documents' alias terms.
func (c *subsetCopy) aliases() error {
	aliasCols, err := c.cols("aliases", "doc")
	if err != nil {
		return err
	}
	return c.exec(`INSERT INTO main.aliases (doc, ` + aliasCols + `) SELECT m.new, ` + prefixed("a.", aliasCols) + `
		FROM src.aliases a JOIN temp.subset_docs m ON m.old = a.doc`)
}

// links copies the chosen documents' links, each pointed at its target by
// key among the documents main holds, and, unless the copy replaces
// main's content, points main's links at the targets that just arrived.
func (c *subsetCopy) links() error {
	linkCols, err := c.cols("links", "id", "src", "dst")
	if err != nil {
		return err
	}
	// A link's target is found by key among the documents s holds.
	if err := c.exec(`INSERT INTO main.links (src, dst, ` + linkCols + `)
		SELECT m.new, (SELECT w.id FROM src.docs t JOIN main.docs w ON w.key = t.key WHERE t.id = l.dst ORDER BY w.path LIMIT 1), ` + prefixed("l.", linkCols) + `
		FROM src.links l JOIN temp.subset_docs m ON m.old = l.src ORDER BY l.id`); err != nil {
		return err
	}
	if c.opt.Replace {
		return nil
	}
	// Links s held before whose target has just arrived: the same link (by
	// source key and position) in the source, when the source document
	// there is the one s holds (same blob).
	return c.exec(`UPDATE main.links SET dst = (
				SELECT w.id FROM src.links sl
				JOIN src.docs sd ON sd.id = sl.src
				JOIN src.docs td ON td.id = sl.dst
				JOIN main.docs w ON w.key = td.key
				JOIN main.docs md ON md.id = main.links.src
				WHERE sd.key = md.key AND sd.oid = md.oid AND sl.seq = main.links.seq
				ORDER BY w.path LIMIT 1)
			WHERE dst IS NULL AND status = 'ok' AND src NOT IN (SELECT new FROM temp.subset_docs)`)
}

// chunks copies the chosen documents' sections and their full text under
// new ids.
func (c *subsetCopy) chunks() error {
	err := c.exec(`CREATE TEMP TABLE subset_chunks AS
		SELECT c.id AS old, (SELECT coalesce(max(id), 0) FROM main.chunks) + row_number() OVER (ORDER BY m.new, c.seq) AS new, m.new AS doc
		FROM src.chunks c JOIN temp.subset_docs m ON m.old = c.doc`)
	if err != nil {
		return err
	}
	chunkCols, err := c.cols("chunks", "id", "doc")
	if err != nil {
		return err
	}
	if err := c.exec(`INSERT INTO main.chunks (id, doc, ` + chunkCols + `) SELECT m.new, m.doc, ` + prefixed("c.", chunkCols) + `
		FROM src.chunks c JOIN temp.subset_chunks m ON m.old = c.id`); err != nil {
		return err
	}
	return c.exec(`INSERT INTO main.chunks_fts (rowid, title, heading, body) SELECT m.new, f.title, f.heading, f.body
		FROM temp.subset_chunks m JOIN src.chunks_fts f ON f.rowid = m.old ORDER BY m.new`)
}

// problems copies the chosen documents' problems.
func (c *subsetCopy) problems() error {
	probCols, err := c.cols("problems", "doc")
	if err != nil {
		return err
	}
	return c.exec(`INSERT INTO main.problems (doc, ` + probCols + `) SELECT m.new, ` + prefixed("p.", probCols) + `
		FROM src.problems p JOIN temp.subset_docs m ON m.old = p.doc`)
}

// columns lists a table's columns in schema order, comma-separated, without
// the skipped ones. Both databases have the same schema (the same
// SchemaVersion), so the list of main serves for src.
func columns(ctx context.Context, tx *sql.Tx, table string, skip ...string) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info(?, 'main') ORDER BY cid`, table)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var out []string
next:
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return "", err
		}
		for _, s := range skip {
			if name == s {
				continue next
			}
		}
		out = append(out, name)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(out) == 0 {
		return "", fmt.Errorf("table %s has no columns", table)
	}
	return strings.Join(out, ", "), nil
}

func prefixed(p, cols string) string {
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = p + parts[i]
	}
	return strings.Join(parts, ", ")
}
