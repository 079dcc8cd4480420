package fulltext

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// FTSColumns are chunks_fts's columns and tokenizer (index's schema), which the scratch
// table that highlights a read's hits repeats (hits.go).
const FTSColumns = `title, heading, body, tokenize = 'porter unicode61 remove_diacritics 2'`

// A read highlights the few sections it shows (a search's snippets, a
// context pack's matched words) with FTS5's snippet() and highlight(),
// which run only while FTS5 reads a match. There are two ways to have it
// read just those rows:
//
//   - ask chunks_fts for them (someOfMatches): FTS5 looks each row up in
//     every term's list of rows in every segment, or reads every match
//     again when there are few;
//   - index them again on their own, in a scratch table (EachHit), and ask
//     it.
//
// The first costs a seek per row, term and segment, and every sync adds a
// segment (FTS5 merges them when 16 have piled up, or 4 on a level with
// enough written): at 100k documents, the snippets of a search's 11 hits
// cost 0.22 ms with one segment (as a full build or `canon index
// --optimize` leaves the index) and 0.80 ms with 16; the highlights of 40
// sections 1.0 and 3.1 ms. The scratch table costs the same at any number
// of segments: 0.28 and 1.3 ms. So a read takes the scratch table from
// scratchFromSegments segments on (highlightWay). The marks are the same
// either way: both are made from the same text by the same tokenizer
// (TestHitsHighlightAsChunksFTS) (ADR-0026).
const scratchFromSegments = 3

// hitsDDL is the scratch table: canon_hit_text holds the texts,
// canon_hits indexes them with chunks_fts's columns and tokenizer
// (external content, so that emptying it is one 'delete-all'). Both live in
// the connection's temporary database, in memory, made at its first
// scratch read; later reads empty them first (clearHits).
const hitsDDL = `CREATE TEMP TABLE canon_hit_text (id INTEGER PRIMARY KEY, title, heading, body);
CREATE VIRTUAL TABLE temp.canon_hits USING fts5(` + FTSColumns + `, content = 'canon_hit_text', content_rowid = 'id');`

const clearHits = `INSERT INTO canon_hits(canon_hits) VALUES('delete-all'); DELETE FROM canon_hit_text;`

// MarkCols are the auxiliary functions over the full-text table t that
// mark matched words with \x02 ... \x03 in the title, the heading and a
// window of the text.
func MarkCols(t string) string {
	return `highlight(` + t + `, 0, char(2), char(3)), highlight(` + t + `, 1, char(2), char(3)), snippet(` + t + `, 2, char(2), char(3), '', 64)`
}

// SnippetCol is a search hit's snippet from the full-text table t.
func SnippetCol(t string) string {
	return `snippet(` + t + `, 2, '**', '**', '…', 16)`
}

// eachHighlight calls fn for each of the sections ids (chunk ids) that
// matches the full-text query q (which matched total sections in all, 0
// when not counted), with cols(table) after its id: the auxiliary
// functions, over whichever full-text table it reads them from.
func eachHighlight(ctx context.Context, tx oneConn, q string, ids []any, total int, cols func(table string) string, fn func(*sql.Rows) error) error {
	if n := Segments(ctx, tx); n >= 0 && n < scratchFromSegments {
		return sqlstore.EachIn(ctx, tx, `SELECT rowid, `+cols("chunks_fts")+` FROM chunks_fts WHERE chunks_fts MATCH ? AND `+someOfMatches(total, len(ids)), []any{q}, ids, nil, fn)
	}
	return EachHit(ctx, tx, q, ids, cols("canon_hits"), fn)
}

// oneConn is one connection to the index, a transaction's or one taken
// from the pool (sql.Conn): the scratch table lives in a connection's
// temporary database, so filling and asking it must use the same one.
type oneConn interface {
	sqlstore.Q
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// someOfMatches is the condition that picks the rows %s (an IN list) among
// the matches of a full-text query that matched total sections. FTS5 can
// look each row up (a seek into every term's list of rows, 10 to 45 µs a
// row at 10k to 100k documents with one segment: the list of a term that
// few sections hold has no index of its own and is read from its start)
// or read every match again (about 0.6 µs a match) and keep the wanted
// ones: the unary + keeps the row ids from FTS5, so that it reads them
// all. It looks up when the matches are more than 32 per row wanted, or
// when it does not know how many matched (total 0) (ADR-0023). Either way
// the rows and their texts are the same.
func someOfMatches(total, wanted int) string {
	if total == 0 || total > 32*wanted {
		return `rowid IN (%s)`
	}
	return `+rowid IN (%s)`
}

// EachHit puts the sections ids in the scratch table and calls fn for each
// of them that matches q, with cols (over canon_hits) after its id.
// Emptying, filling and indexing the table is one call (go-sqlite3 runs
// the statements of a string in turn, each taking its arguments from the
// front of the list).
func EachHit(ctx context.Context, tx oneConn, q string, ids []any, cols string, fn func(*sql.Rows) error) error {
	fill := clearHits
	_ = sqlstore.Batches(ids, 1, 0, func(part []any) error {
		fill += sqlstore.InList(`INSERT INTO canon_hit_text SELECT rowid, title, heading, body FROM chunks_fts WHERE rowid IN (%s);`, len(part))
		return nil
	})
	fill += `INSERT INTO canon_hits(canon_hits) VALUES('rebuild');`
	_, err := tx.ExecContext(ctx, fill, ids...)
	if err != nil && strings.Contains(err.Error(), "no such table") {
		if _, err = tx.ExecContext(ctx, hitsDDL); err == nil {
			_, err = tx.ExecContext(ctx, fill, ids...)
		}
	}
	if err != nil {
		return fmt.Errorf("prepare the highlights: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT rowid, `+cols+` FROM canon_hits WHERE canon_hits MATCH ?`, q)
	if err != nil {
		return err
	}
	return sqlstore.EachRow(rows, fn)
}

// Segments is the number of segments of chunks_fts, read from
// FTS5's structure record (a 4-byte cookie, FTS5's 4-byte marker of its
// second form if present, then the number of levels and of segments as
// SQLite varints), or -1 when it cannot be read.
func Segments(ctx context.Context, x sqlstore.Q) int {
	var b []byte
	if err := x.QueryRowContext(ctx, `SELECT block FROM chunks_fts_data WHERE id = 10`).Scan(&b); err != nil || len(b) < 4 {
		return -1
	}
	b = b[4:]
	if len(b) >= 4 && binary.BigEndian.Uint32(b) == 0xff000001 {
		b = b[4:]
	}
	_, n := sqliteVarint(b) // levels
	if n == 0 {
		return -1
	}
	segs, m := sqliteVarint(b[n:])
	if m == 0 || segs > 1<<20 {
		return -1
	}
	return int(segs)
}

// sqliteVarint decodes a SQLite varint (big-endian, 7 bits a byte, the
// ninth byte whole), returning its value and length (0 if b ends first).
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
