package planguard

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Large are the tables that grow with the repository: a full scan of one
// costs in proportion to the repository, not to what changed.
var Large = map[string]bool{"docs": true, "links": true, "chunks": true, "chunks_fts": true, "problems": true, "aliases": true, "skipped": true}

// Statement is one distinct statement a recorder saw, with its plan.
type Statement struct {
	SQL   string   // normalized: spaces collapsed, IN lists of ? shortened
	Plan  []string // EXPLAIN QUERY PLAN's lines, indented as a tree
	Scans []string // the large tables it reads whole
	Err   error    // EXPLAIN failed
}

// Recorder explains the statements run on the databases under one folder.
type Recorder struct {
	dirs  []string // the folder, as given and with its links resolved
	mu    sync.Mutex
	seen  map[string]bool
	stmts []Statement
	// failed holds the statements EXPLAIN refused, until one explains:
	// canon may run a statement, create the table it names, and run it
	// again (the search's scratch table).
	failed  map[string]error
	partial map[string]bool // index name → has a WHERE clause
}

// Watch explains, until the test ends, every statement run on a database
// under dir (a repository: its index is .git/canon/index.db).
func Watch(tb testing.TB, dir string) *Recorder {
	tb.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		tb.Fatal(err)
	}
	r := &Recorder{dirs: []string{abs + string(filepath.Separator)}, seen: map[string]bool{}, failed: map[string]error{}, partial: map[string]bool{}}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil && resolved != abs {
		r.dirs = append(r.dirs, resolved+string(filepath.Separator))
	}
	mu.Lock()
	recorders = append(recorders, r)
	mu.Unlock()
	tb.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for i, o := range recorders {
			if o == r {
				recorders = append(recorders[:i], recorders[i+1:]...)
				break
			}
		}
	})
	return r
}

// Take returns the statements seen since the last Take and starts afresh.
func (r *Recorder) Take() []Statement {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.stmts
	for sql, err := range r.failed {
		out = append(out, Statement{SQL: sql, Err: err})
	}
	r.stmts, r.seen, r.failed = nil, map[string]bool{}, map[string]error{}
	return out
}

// Check fails the test for each statement seen since the last Take that
// reads a large table whole and is not in allowed (normalized SQL →
// why it may), naming the path that ran it, the statement and its plan.
// It fails too when nothing was seen: a guard that watches nothing guards
// nothing.
func (r *Recorder) Check(tb testing.TB, path string, allowed map[string]string) {
	tb.Helper()
	stmts := r.Take()
	if len(stmts) == 0 {
		tb.Errorf("%s: no statement was recorded: is the repository's index under the watched folder?", path)
	}
	for _, s := range stmts {
		if s.Err != nil {
			tb.Errorf("%s: EXPLAIN QUERY PLAN failed: %v\n  statement: %s", path, s.Err, s.SQL)
			continue
		}
		if len(s.Scans) == 0 || allowed[s.SQL] != "" {
			continue
		}
		tb.Errorf("%s reads %s whole (a full scan of a table that grows with the repository):\n  statement: %s\n  plan:\n    %s\n"+
			"make it use an index (or read only what changed); if the scan is what it must do, add the statement to planguard.Allowed with the reason",
			path, strings.Join(s.Scans, ", "), s.SQL, strings.Join(s.Plan, "\n    "))
	}
}

// WriteReport lists every statement seen since the last Take with its
// plan, for a look at what a path runs (it starts afresh too).
func (r *Recorder) WriteReport(w io.Writer) {
	for _, s := range r.Take() {
		fmt.Fprintf(w, "%s\n    %s\n", s.SQL, strings.Join(s.Plan, "\n    "))
	}
}

// explain records the plan of each statement in query, on the connection
// about to run it (so in its transaction, with its temporary tables).
func (r *Recorder) explain(ctx context.Context, c driver.Conn, query string, args []driver.NamedValue) {
	parts := split(query)
	for _, p := range parts {
		if !explainable(p) {
			continue
		}
		key := Normalize(p)
		r.mu.Lock()
		dup := r.seen[key]
		r.seen[key] = true
		r.mu.Unlock()
		if dup {
			continue
		}
		if len(parts) > 1 {
			args = nil // bound statement by statement: NULLs explain as well
		}
		s := Statement{SQL: key}
		s.Plan, s.Scans, s.Err = r.queryPlan(ctx, c, p, args)
		r.mu.Lock()
		if s.Err != nil {
			r.failed[key] = s.Err
			delete(r.seen, key)
		} else {
			delete(r.failed, key)
			r.stmts = append(r.stmts, s)
		}
		r.mu.Unlock()
	}
}

// queryPlan runs EXPLAIN QUERY PLAN on c, with args when they are as many
// as the statement's parameters (NULL for each otherwise: the plan does
// not depend on them).
func (r *Recorder) queryPlan(ctx context.Context, c driver.Conn, stmt string, args []driver.NamedValue) (plan, scans []string, err error) {
	err = query(ctx, c, "EXPLAIN QUERY PLAN "+stmt, args, func(row []driver.Value) {
		plan = append(plan, text(row[1])+" "+text(row[0])+" "+text(row[len(row)-1]))
	})
	if err != nil {
		return nil, nil, err
	}
	// Each line as "id parent detail", then indented under its parent.
	depth := map[string]int{"0": 0}
	aliases := tableAliases(stmt)
	for i, l := range plan {
		parent, rest, _ := strings.Cut(l, " ")
		id, detail, _ := strings.Cut(rest, " ")
		depth[id] = depth[parent] + 1
		plan[i] = strings.Repeat("  ", depth[id]-1) + detail
		if t := r.scanned(ctx, c, detail, aliases); t != "" {
			scans = append(scans, t)
		}
	}
	sort.Strings(scans)
	return plan, scans, nil
}

// query runs a statement on c with args when they are as many as its
// parameters (NULL for each otherwise: a plan does not depend on them),
// calling fn with each row.
func query(ctx context.Context, c driver.Conn, stmt string, args []driver.NamedValue, fn func([]driver.Value)) error {
	st, err := c.(driver.ConnPrepareContext).PrepareContext(ctx, stmt)
	if err != nil {
		return err
	}
	defer st.Close()
	vals := args
	if n := st.NumInput(); len(vals) != n {
		vals = make([]driver.NamedValue, n)
		for i := range vals {
			vals[i] = driver.NamedValue{Ordinal: i + 1}
		}
	}
	rows, err := st.(driver.StmtQueryContext).QueryContext(ctx, vals)
	if err != nil {
		return err
	}
	defer rows.Close()
	row := make([]driver.Value, len(rows.Columns()))
	for rows.Next(row) == nil {
		fn(row)
	}
	return nil
}

func text(v driver.Value) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}

var (
	scanLine  = regexp.MustCompile(`^SCAN (\S+)(.*)$`)
	scanIndex = regexp.MustCompile(`USING (?:COVERING )?INDEX (\S+)`)
	// An FTS5 table read by MATCH or rowid has an index string after
	// "INDEX n:"; none is a read of every row.
	virtualUsed = regexp.MustCompile(`VIRTUAL TABLE INDEX \d+:\S`)
)

// scanned names the large table a plan line reads whole ("" for none):
// SCAN without a search, through an index or not (a scan of an index
// reads one entry per row too), unless the index is partial (it holds
// only the rows its WHERE names, as the pending links).
func (r *Recorder) scanned(ctx context.Context, c driver.Conn, detail string, aliases map[string]string) string {
	m := scanLine.FindStringSubmatch(detail)
	if m == nil || virtualUsed.MatchString(m[2]) {
		return ""
	}
	if ix := scanIndex.FindStringSubmatch(m[2]); ix != nil && r.isPartial(ctx, c, ix[1]) {
		return ""
	}
	name := m[1]
	if t, ok := aliases[name]; ok {
		name = t
	}
	if Large[name] {
		return name
	}
	return ""
}

// isPartial reports whether the index has a WHERE clause.
func (r *Recorder) isPartial(ctx context.Context, c driver.Conn, name string) bool {
	r.mu.Lock()
	p, ok := r.partial[name]
	r.mu.Unlock()
	if ok {
		return p
	}
	if err := query(ctx, c, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`, []driver.NamedValue{{Ordinal: 1, Value: name}}, func(row []driver.Value) {
		p = partialIndex.MatchString(text(row[0]))
	}); err != nil {
		return false // not remembered: the next plan asks again
	}
	r.mu.Lock()
	r.partial[name] = p
	r.mu.Unlock()
	return p
}

var partialIndex = regexp.MustCompile(`(?is)\)\s*WHERE\s`)

var tableRef = regexp.MustCompile(`(?i)\b(?:FROM|JOIN)\s+(?:\w+\.)?(\w+)(?:\s+(?:AS\s+)?(\w+))?`)

// notAlias are the words that may follow a table's name without being
// its alias.
var notAlias = map[string]bool{"WHERE": true, "JOIN": true, "LEFT": true, "INNER": true, "CROSS": true, "NATURAL": true, "ON": true,
	"USING": true, "ORDER": true, "GROUP": true, "LIMIT": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "SET": true,
	"WINDOW": true, "HAVING": true, "INDEXED": true, "NOT": true, "VALUES": true, "RETURNING": true}

// tableAliases maps each alias in stmt to its table (FROM links l).
func tableAliases(stmt string) map[string]string {
	out := map[string]string{}
	for _, m := range tableRef.FindAllStringSubmatch(stmt, -1) {
		if m[2] != "" && !notAlias[strings.ToUpper(m[2])] {
			out[m[2]] = m[1]
		}
	}
	return out
}

// firstWord is a statement's first word, after any comments.
var firstWord = regexp.MustCompile(`^(?:\s|--[^\n]*(?:\n|$)|/\*(?s:.*?)\*/)*(\w+)`)
var asSelect = regexp.MustCompile(`(?is)\bAS\s*\(?\s*SELECT\b`)

// explainable: what reads or writes rows (schema changes and pragmas have
// no plan, and may name what an earlier statement creates).
func explainable(stmt string) bool {
	m := firstWord.FindStringSubmatch(stmt)
	if m == nil {
		return false
	}
	switch strings.ToUpper(m[1]) {
	case "SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "REPLACE":
		return true
	case "CREATE":
		return asSelect.MatchString(stmt)
	}
	return false
}

var (
	spaces  = regexp.MustCompile(`\s+`)
	inMarks = regexp.MustCompile(`\?(?:\s*,\s*\?)+`)
)

// Normalize is a statement as Allowed names it: spaces collapsed, no
// final semicolon, a list of ? as "?, …" whatever its length.
func Normalize(stmt string) string {
	s := strings.TrimSpace(spaces.ReplaceAllString(stmt, " "))
	s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	return inMarks.ReplaceAllString(s, "?, …")
}

// split cuts query into its statements at the semicolons outside quotes
// and comments.
func split(query string) []string {
	var out []string
	start := 0
	for i := 0; i < len(query); i++ {
		switch ch := query[i]; {
		case ch == '\'' || ch == '"' || ch == '`':
			if j := strings.IndexByte(query[i+1:], ch); j >= 0 {
				i += j + 1
			}
		case ch == '[':
			if j := strings.IndexByte(query[i+1:], ']'); j >= 0 {
				i += j + 1
			}
		case ch == '-' && strings.HasPrefix(query[i:], "--"):
			if j := strings.IndexByte(query[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(query)
			}
		case ch == '/' && strings.HasPrefix(query[i:], "/*"):
			if j := strings.Index(query[i+2:], "*/"); j >= 0 {
				i += j + 3
			} else {
				i = len(query)
			}
		case ch == ';':
			if s := strings.TrimSpace(query[start:i]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if start < len(query) {
		if s := strings.TrimSpace(query[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}
