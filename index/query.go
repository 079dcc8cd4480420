package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// Status sums up what the index holds.
type Status struct {
	Documents int            `json:"documents"`
	Kinds     map[string]int `json:"kinds"`
	Skipped   int            `json:"skipped_files"`
	// Linked are those of the skipped files that are symbolic links to a
	// document canon indexes itself (README.md → index.md): nothing of
	// them is lost.
	Linked int        `json:"skipped_links"`
	Links  LinkCounts `json:"links"`
	Chunks int        `json:"chunks"`
}

// LinkCounts counts links by how they resolved.
type LinkCounts struct {
	Resolved  int `json:"resolved"`
	Dangling  int `json:"dangling"`
	Ambiguous int `json:"ambiguous"`
	External  int `json:"external"`
	Files     int `json:"files"`
	SameFile  int `json:"same_file"`
}

// Counts reads the index's counts.
func (s *Store) Counts(ctx context.Context) (*Status, error) {
	st := &Status{Kinds: map[string]int{}}
	if err := s.h.DB.QueryRowContext(ctx, `SELECT count(*) FROM docs`).Scan(&st.Documents); err != nil {
		return nil, friendly(err, s.path)
	}
	rows, err := s.h.DB.QueryContext(ctx, `SELECT kind, count(*) FROM docs GROUP BY kind ORDER BY kind`)
	if err != nil {
		return nil, err
	}
	err = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var k string
		var n int
		if err := r.Scan(&k, &n); err != nil {
			return err
		}
		st.Kinds[k] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	rows, err = s.h.DB.QueryContext(ctx, `SELECT status, count(*) FROM links GROUP BY status`)
	if err != nil {
		return nil, err
	}
	err = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var k string
		var n int
		if err := r.Scan(&k, &n); err != nil {
			return err
		}
		switch k {
		case resolve.StatusOK:
			st.Links.Resolved = n
		case resolve.StatusDangling:
			st.Links.Dangling = n
		case resolve.StatusAmbiguous:
			st.Links.Ambiguous = n
		case resolve.StatusExternal:
			st.Links.External = n
		case resolve.StatusFile:
			st.Links.Files = n
		case resolve.StatusSelf:
			st.Links.SameFile = n
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.h.DB.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&st.Chunks); err != nil {
		return nil, err
	}
	if err := s.h.DB.QueryRowContext(ctx, `SELECT count(*) FROM skipped`).Scan(&st.Skipped); err != nil {
		return nil, err
	}
	var targets []string
	rows, err = s.h.DB.QueryContext(ctx, `SELECT reason FROM skipped WHERE reason LIKE ?`, "%"+scan.LinkedSuffix)
	if err != nil {
		return nil, err
	}
	err = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var reason string
		err := r.Scan(&reason)
		if t, ok := scan.LinkedTarget(reason); ok {
			targets = append(targets, t)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	indexed, err := checkreads.DocIDsOfPaths(ctx, sqlstore.QuerierOf(s.h.DB), targets)
	for _, t := range targets {
		if _, ok := indexed[t]; ok {
			st.Linked++
		}
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}

// NothingNamed is an option that names nothing: a namespace no configured
// namespace has, a kind no document has. Flag is the option.
type NothingNamed struct {
	Flag, Msg string
}

func (e *NothingNamed) Error() string { return e.Msg }

// noNamespace is the NothingNamed of a namespace name nothing has.
func (s *Store) noNamespace(name string) error {
	return &NothingNamed{Flag: "namespace", Msg: fmt.Sprintf("there is no namespace %q%s", name, s.namespaceList())}
}

// NoKind returns, when no document has one of kinds that the configuration
// does not name either, the NothingNamed that says so and lists the kinds
// the index holds; nil when each has one.
func (s *Store) NoKind(ctx context.Context, kinds ...string) error {
	return s.noneOf(ctx, "kind", `docs`, `kind`, "no document is of kind %q; the kinds here are %s", unknownOf(s.KnownKinds, kinds))
}

// NoEdgeType is NoKind for the types of links (--edges): a type the
// configuration names is known, with links or without.
func (s *Store) NoEdgeType(ctx context.Context, types ...string) error {
	return s.noneOf(ctx, "edges", `links`, `type`, "no link is of type %q; the types here are %s", unknownOf(s.KnownEdges, types))
}

// Linked reports whether any resolved edge, of any type, joins the
// document to another one, either way.
func (s *Store) Linked(ctx context.Context, doc DocID) (bool, error) {
	var n int
	err := s.h.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM links WHERE src = ?1 AND status = 'ok' AND dst <> ?1)
		OR EXISTS (SELECT 1 FROM links WHERE dst = ?1 AND src <> ?1 AND status = 'ok')`, int64(doc)).Scan(&n)
	return n == 1, err
}

// unknownOf keeps the values known does not hold.
func unknownOf(known map[string]bool, vals []string) []string {
	var out []string
	for _, v := range vals {
		if !known[v] {
			out = append(out, v)
		}
	}
	return out
}

// noneOf returns the NothingNamed of the first of vals no row of table has
// in column (msg says it, with the value and the values there), or nil.
func (s *Store) noneOf(ctx context.Context, flag, table, column, msg string, vals []string) error {
	for _, v := range vals {
		var one int
		err := s.h.DB.QueryRowContext(ctx, `SELECT 1 FROM `+table+` WHERE `+column+` = ? LIMIT 1`, v).Scan(&one)
		if err == nil {
			continue
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var have []string
		rows, err := s.h.DB.QueryContext(ctx, `SELECT DISTINCT `+column+` FROM `+table+` ORDER BY 1`)
		if err != nil {
			return err
		}
		if err := sqlstore.EachRow(rows, func(r *sql.Rows) error {
			var h string
			err := r.Scan(&h)
			have = append(have, h)
			return err
		}); err != nil {
			return err
		}
		if len(have) == 0 {
			have = []string{"none"}
		}
		return &NothingNamed{Flag: flag, Msg: fmt.Sprintf(msg, v, strings.Join(have, ", "))}
	}
	return nil
}

func (s *Store) namespaceList() string {
	seen := map[string]bool{}
	var names []string
	rows, err := s.h.DB.Query(`SELECT path FROM docs ORDER BY path`)
	if err != nil {
		return ""
	}
	// It decorates an error message: a failed read lists what was read.
	_ = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var p string
		if err := r.Scan(&p); err != nil {
			return err
		}
		if name, _ := s.Namespaces.Of(p); name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		return nil
	})
	if len(names) == 0 {
		return "; no document is in a namespace (see namespaces: in .canon/config.yaml)"
	}
	return "; the namespaces are " + strings.Join(names, ", ")
}

// Find returns the documents a reference names: a node key, uid, id, path or
// file stem, tried in that order, then the number a file name starts
// with (0097), then a document's exact title (case and spaces aside, a
// slash and all: "Client/server split"). More than one means it is
// ambiguous.
func (s *Store) Find(ctx context.Context, ref string) ([]DocRef, error) {
	ref = strings.TrimSpace(resolve.Slashes(ref))
	ref = strings.TrimPrefix(ref, "./")
	// NAMESPACE:ID names the document of that namespace (a key already
	// reads so when the id is taken in another namespace too).
	if name, rest, ok := strings.Cut(ref, ":"); ok && rest != "" && len(s.Namespaces.Folders(name)) > 0 {
		docs, err := s.Find(ctx, rest)
		if err != nil {
			return nil, err
		}
		var in []DocRef
		for _, d := range docs {
			if ns, _ := s.Namespaces.Of(d.Path); ns == name {
				in = append(in, d)
			}
		}
		if len(in) > 0 {
			return in, nil
		}
		// Not in that namespace: perhaps a key or path with a colon.
	}
	var candidates []string
	if strings.HasPrefix(ref, "[[") && strings.HasSuffix(ref, "]]") {
		target, _ := resolve.SplitWiki(ref[2 : len(ref)-2])
		ref = target
	}
	queries, stemQuery, mdQuery, dirQuery := findLookups(ref)
	if at := strings.LastIndexByte(ref, '@'); at > 0 {
		candidates = append(candidates, ref[:at], strings.ToLower(ref[at+1:]))
	}
	if len(candidates) == 2 {
		rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+` FROM docs d WHERE lower(d.ident) = ? AND lower(d.uid) LIKE ? ESCAPE '\' ORDER BY d.path`,
			strings.ToLower(candidates[0]), likePrefix(candidates[1]))
		if err != nil {
			return nil, err
		}
		refs, err := collectRefs(rows)
		if err != nil || len(refs) > 0 {
			return refs, err
		}
	}
	for i, q := range queries {
		rows, err := s.h.DB.QueryContext(ctx, q.sql+` ORDER BY d.path`, q.arg)
		if err != nil {
			return nil, friendly(err, s.path)
		}
		refs, err := collectRefs(rows)
		if err != nil {
			return nil, err
		}
		if i == stemQuery && len(refs) > 1 && strings.Contains(ref, "/") {
			// A path no document is at: the one document of its file name
			// (a file moved) is meant, but not every index.md there is.
			return nil, nil
		}
		if (i == stemQuery || i == mdQuery) && len(refs) > 0 && dirQuery >= 0 {
			// swap.md and a folder swap/ with a README are both shown as
			// swap: the name names both.
			rows, err := s.h.DB.QueryContext(ctx, queries[dirQuery].sql+` ORDER BY d.path`, queries[dirQuery].arg)
			if err != nil {
				return nil, friendly(err, s.path)
			}
			pages, err := collectRefs(rows)
			if err != nil {
				return nil, err
			}
			refs = append(refs, pages...)
			sort.Slice(refs, func(a, b int) bool { return refs[a].Path < refs[b].Path })
		}
		if len(refs) > 0 {
			return refs, nil
		}
	}
	return nil, nil
}

// findLookup is one query Find tries, and its argument.
type findLookup struct{ sql, arg string }

// findLookups are the queries Find tries for ref, in order, and which of
// them is the file stem's, the path's without its .md, and the folder's
// page's (-1: none).
func findLookups(ref string) (queries []findLookup, stemQuery, mdQuery, dirQuery int) {
	byAlias := func(term string) findLookup {
		return findLookup{`SELECT ` + sqlstore.DocRefCols + ` FROM docs d JOIN aliases a ON a.doc = d.id WHERE a.term = ?`, term}
	}
	queries = []findLookup{
		{`SELECT ` + sqlstore.DocRefCols + ` FROM docs d WHERE d.key = ?`, ref},
		byAlias("uid:" + strings.ToLower(ref)),
		byAlias("id:" + strings.ToLower(ref)),
		{`SELECT ` + sqlstore.DocRefCols + ` FROM docs d WHERE d.path = ?`, ref},
		{`SELECT ` + sqlstore.DocRefCols + ` FROM docs d WHERE lower(d.path) = ?`, strings.ToLower(resolve.TrimMD(ref)) + ".md"},
		byAlias("stem:" + strings.ToLower(markdown.Stem(ref))),
	}
	stemQuery, mdQuery = len(queries)-1, len(queries)-2
	if resolve.IsNumber(ref) {
		queries = append(queries, byAlias("num:"+ref)) // 0096: the decision whose file name starts with it
	} else if _, _, ok := resolve.PrefixNumber(ref); ok && !strings.Contains(ref, "/") {
		queries = append(queries, byAlias("num:"+strings.ToLower(ref))) // ADR-004: adr-004-module-loading.md (resolve.RecordName); task-97 (its headName)
	}
	dirQuery = -1
	if !strings.Contains(ref, "/") && !scan.IsMarkdown(ref) {
		dirQuery = len(queries)
		queries = append(queries, byAlias("dir:"+strings.ToLower(ref))) // 2400-node-swap: its folder's README.md or index.md
	}
	if _, _, ok := resolve.PrefixNumber(ref); ok || resolve.IsNumber(ref) {
		queries = append(queries, byAlias("was:"+strings.ToLower(ref))) // task-4: BACK-4 once task was back's prefix (config.Prefixes)
	}
	if t := resolve.TitleKey(ref); t != "" {
		queries = append(queries, byAlias("title:"+t)) // last: a document's exact title, "Client/server split" too
	}
	return queries, stemQuery, mdQuery, dirQuery
}

func likePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s) + "%"
}

func collectRefs(rows *sql.Rows) ([]DocRef, error) {
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (DocRef, error) { return sqlstore.ScanDocRef(r) })
}

// Edge is one link of a document, seen from it.
type Edge struct {
	Type   string  `json:"type"`
	Field  string  `json:"field,omitempty"` // frontmatter field; empty for a body link
	Form   string  `json:"form"`            // ref, md, image, wiki, embed, url
	Raw    string  `json:"raw"`             // as written
	Anchor string  `json:"anchor,omitempty"`
	Path   string  `json:"path"` // file where it is declared
	Line   int     `json:"line"`
	Col    int     `json:"col"`
	Status string  `json:"status"`          // ok, self, dangling, ambiguous, external, file
	Other  *DocRef `json:"other,omitempty"` // the other end, when resolved
}

// Section is one chunk of a document.
type Section struct {
	Chunk   string `json:"chunk"`
	Slug    string `json:"slug"`
	Heading string `json:"heading"`
	Level   int    `json:"level"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Text    string `json:"text,omitempty"`
}

// DocView is everything the index knows of one document.
type DocView struct {
	DocRef
	UID         string          `json:"uid,omitempty"`
	Type        string          `json:"type,omitempty"`
	OID         string          `json:"oid"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Outgoing    []Edge          `json:"outgoing"`
	// SelfLinks counts the links of the body to the document itself
	// ([Motivation](#motivation), a table of contents), left out of
	// Outgoing: no edge to another document (canon check checks their
	// anchors).
	SelfLinks int       `json:"self_links,omitempty"`
	Incoming  []Edge    `json:"incoming"`
	Sections  []Section `json:"sections"`
	Problems  []Problem `json:"problems"`
	// TextLeftOut is about how many tokens of section text a budget
	// left out (canon show --text --budget, the MCP tool show).
	TextLeftOut int `json:"text_left_out,omitempty"`
}

// Show reads one document by its node key.
func (s *Store) Show(ctx context.Context, key string, withText bool) (*DocView, error) {
	var v DocView
	var id int64
	var fm string
	row := s.h.DB.QueryRowContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.id, d.uid, d.type, d.oid, d.fm FROM docs d WHERE d.key = ? ORDER BY d.path LIMIT 1`, key)
	ref, err := sqlstore.ScanDocRef(row, &id, &v.UID, &v.Type, &v.OID, &fm)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no document has the key %q", key)
	}
	if err != nil {
		return nil, err
	}
	v.DocRef = ref
	v.Frontmatter = json.RawMessage(fm)
	if v.Outgoing, err = s.edges(ctx, `l.src = ?`, `l.dst`, id); err != nil {
		return nil, err
	}
	out := v.Outgoing[:0]
	for _, e := range v.Outgoing {
		if e.Status == resolve.StatusSelf && e.Field == "" {
			v.SelfLinks++
			continue
		}
		out = append(out, e)
	}
	v.Outgoing = out
	if v.Incoming, err = s.edges(ctx, `l.dst = ? AND l.status = 'ok'`, `l.src`, id); err != nil {
		return nil, err
	}
	textCol := `''`
	if withText {
		textCol = `f.body`
	}
	rows, err := s.h.DB.QueryContext(ctx, `SELECT c.slug, c.heading, c.level, c.line, c.end_line, `+textCol+`
		FROM chunks c JOIN chunks_fts f ON f.rowid = c.id WHERE c.doc = ? ORDER BY c.seq`, id)
	if err != nil {
		return nil, err
	}
	v.Sections, err = sqlstore.ScanAll(rows, func(r *sql.Rows) (Section, error) {
		var sec Section
		err := r.Scan(&sec.Slug, &sec.Heading, &sec.Level, &sec.Line, &sec.EndLine, &sec.Text)
		sec.Chunk = v.Key + "#" + sec.Slug
		return sec, err
	})
	if err != nil {
		return nil, err
	}
	v.Problems = []Problem{} // the caller checks the document (gitsync.DocProblems)
	return &v, nil
}

// edges lists links matching cond; other names the column of the other end.
func (s *Store) edges(ctx context.Context, cond, other string, id int64) ([]Edge, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT l.type, l.field, l.form, l.raw, l.anchor, sd.path, l.line, l.col, l.status,
			d.key, d.ident, d.path, d.kind, d.title, d.state
		FROM links l JOIN docs sd ON sd.id = l.src LEFT JOIN docs d ON d.id = `+other+`
		WHERE `+cond+` ORDER BY sd.path, l.seq`, id)
	if err != nil {
		return nil, err
	}
	out, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (Edge, error) {
		var e Edge
		var key, ident, path, kind, title, state sql.NullString
		if err := r.Scan(&e.Type, &e.Field, &e.Form, &e.Raw, &e.Anchor, &e.Path, &e.Line, &e.Col, &e.Status,
			&key, &ident, &path, &kind, &title, &state); err != nil {
			return e, err
		}
		if key.Valid {
			r := sqlstore.NewDocRef(key.String, ident.String, path.String, kind.String, title.String, state.String)
			e.Other = &r
		}
		return e, nil
	})
	if out == nil {
		out = []Edge{}
	}
	return out, err
}

// SortProblems orders problems the way every output shows them.
func SortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}
