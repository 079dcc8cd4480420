// Package dump writes an index's content as sorted lines, for canon
// verify (ADR-0080's family of the whole database): rows are named by
// path and node key, never by row id, so two indexes of the same tree dump
// the same whatever order they were built in.
//
// index.Store embeds Dumper (st.Dump), and index.DiffDumps is Diff. It
// shares the store's handle (index/internal/sqlstore) and hands out no
// rows.
package dump

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// Dumper dumps one index database.
type Dumper struct{ h *sqlstore.Handle }

// New is the dump of the database h holds.
func New(h *sqlstore.Handle) Dumper { return Dumper{h} }

// Dump writes the index's content as sorted lines that name rows by path and
// node key, never by row id, so two indexes of the same tree dump the same
// whatever order they were built in. Stat data (mtime) is left out: it is
// not content. canon verify compares dumps.
func (s Dumper) Dump(ctx context.Context) ([]string, error) {
	var out []string
	q := func(prefix, query string, n int) error {
		rows, err := s.h.DB.QueryContext(ctx, query)
		if err != nil {
			return fmt.Errorf("dump %s: %w", prefix, err)
		}
		defer rows.Close()
		vals := make([]any, n)
		ptrs := make([]any, n)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			var b strings.Builder
			b.WriteString(prefix)
			for _, v := range vals {
				b.WriteByte('\t')
				switch t := v.(type) {
				case nil:
					b.WriteString("∅")
				case []byte:
					b.WriteString(escapeDump(string(t)))
				case string:
					b.WriteString(escapeDump(t))
				default:
					fmt.Fprint(&b, t)
				}
			}
			out = append(out, b.String())
		}
		return rows.Err()
	}
	steps := []struct {
		prefix, query string
		n             int
	}{
		{"doc", `SELECT path, oid, size, natural_key, key, ident, ident_line, uid, uid_line, type, kind, title, state, format, body_line, fm, fm_pos, disables, anchors, links_sig, generated, sidecar FROM docs`, 22},
		{"skipped", `SELECT path, oid, size, reason FROM skipped`, 4},
		{"alias", `SELECT d.path, a.term FROM aliases a JOIN docs d ON d.id = a.doc`, 2},
		{"link", `SELECT s.path, l.seq, l.type, l.field, l.form, l.raw, l.anchor, l.line, l.col, l.match, l.status, t.path
			FROM links l JOIN docs s ON s.id = l.src LEFT JOIN docs t ON t.id = l.dst`, 12},
		{"chunk", `SELECT d.path, c.seq, c.slug, c.heading, c.level, c.line, c.end_line, c.hash, f.title, f.heading, f.body
			FROM chunks c JOIN docs d ON d.id = c.doc JOIN chunks_fts f ON f.rowid = c.id`, 11},
		{"problem", `SELECT path, line, col, rule, severity, message FROM problems`, 6},
	}
	for _, st := range steps {
		if err := q(st.prefix, st.query, st.n); err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

func escapeDump(s string) string {
	if len(s) > 200 {
		sum := sha1.Sum([]byte(s))
		return "sha1:" + hex.EncodeToString(sum[:8]) + "/" + fmt.Sprint(len(s))
	}
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return dumpEscaper.Replace(s)
}

// dumpEscaper writes line feeds and tabs as \n and \t: a dump row is one
// line of tab-separated values. One for every call (a replacer built per
// value was half of canon verify's time on tldr-pages/tldr).
var dumpEscaper = strings.NewReplacer("\n", `\n`, "\t", `\t`)

// Diff lists the lines only in a ("-") or only in b ("+"), in order.
func Diff(a, b []string) []string {
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, "- "+a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			out = append(out, "+ "+b[j])
			j++
		default:
			i++
			j++
		}
	}
	return out
}
