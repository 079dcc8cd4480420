package filter

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCompile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		sql  string
		args []any
	}{
		{"state = 'Ready'", `((d.state COLLATE NOCASE) IS ?)`, []any{"Ready"}},
		{"state != 'Dropped'", `((d.state COLLATE NOCASE) IS NOT ?)`, []any{"Dropped"}},
		{"priority <= 'P1'", `((json_extract(d.fm, ?) COLLATE NOCASE) <= ?)`, []any{`$."priority"`, "P1"}},
		{"external.jira_key IS NOT NULL", `((json_extract(d.fm, ?) COLLATE NOCASE) IS NOT NULL)`, []any{`$."external"."jira_key"`}},
		{"state IN ('Ready', 'InProgress') and priority <= 'P1'",
			`(((d.state COLLATE NOCASE) IN (?, ?)) AND ((json_extract(d.fm, ?) COLLATE NOCASE) <= ?))`,
			[]any{"Ready", "InProgress", `$."priority"`, "P1"}},
		{"NOT (kind = 'adr' OR title LIKE '%web%')",
			`(NOT (((d.kind COLLATE NOCASE) IS ?) OR ((d.title COLLATE NOCASE) LIKE ?)))`, []any{"adr", "%web%"}},
		{"id NOT IN ('a')", `((d.ident COLLATE NOCASE) NOT IN (?))`, []any{"a"}},
		{"title NOT LIKE 'x%'", `((d.title COLLATE NOCASE) NOT LIKE ?)`, []any{"x%"}},
		{"azure_id > -5 AND points = 1.5 AND done = true", `((((json_extract(d.fm, ?) COLLATE NOCASE) > ?) AND ((json_extract(d.fm, ?) COLLATE NOCASE) IS ?)) AND ((json_extract(d.fm, ?) COLLATE NOCASE) IS ?))`,
			[]any{`$."azure_id"`, int64(-5), `$."points"`, 1.5, `$."done"`, true}},
		{"title = 'it''s'", `((d.title COLLATE NOCASE) IS ?)`, []any{"it's"}},
		{"a-b <> 'x'", `((json_extract(d.fm, ?) COLLATE NOCASE) IS NOT ?)`, []any{`$."a-b"`, "x"}},
	}
	for _, tt := range tests {
		f, err := Compile(tt.in)
		if err != nil {
			t.Errorf("filter.Compile(%q): %v", tt.in, err)
			continue
		}
		if f.SQL != tt.sql || !reflect.DeepEqual(f.Args, tt.args) {
			t.Errorf("filter.Compile(%q) =\n  %s %#v\nwant\n  %s %#v", tt.in, f.SQL, f.Args, tt.sql, tt.args)
		}
	}
}

func TestCompileRejects(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, err string }{
		// Injection attempts.
		{"state = 'x'; DROP TABLE docs", "';' is not allowed"},
		{"state = 'x';", "';' is not allowed"},
		{"1=1) OR (1=1", "')' has no matching '('"},
		{"state = 'x' -- comment", "comments are not allowed"},
		{"state = 'x' /* c */", "comments are not allowed"},
		{"state = 'x' OR 1=1 --", "comments are not allowed"},
		{`"state" = 'x'`, "quoted or bracketed names"},
		{"[state] = 'x'", "quoted or bracketed names"},
		{"`state` = 'x'", "quoted or bracketed names"},
		{"load_extension('x') = 1", "unknown function load_extension"},
		{"lower(state) = 'x'", "unknown function lower"},
		{"state = char(65)", "unknown function char"},
		{"state = 'x' UNION SELECT 1", "unexpected \"UNION\""},
		{"state = 'x' state = 'y'", "unexpected \"state\""},
		{"(SELECT 1) = 1", "expected a comparison"},
		{"state = x'41'", "unexpected '41'"},
		{"state = 'unclosed", "not closed"},
		{"state == 'x'", "unknown operator"},
		{"state ! 'x'", "unknown operator"},
		{"state", "expected a comparison"},
		{"state = ", "expected a value, found the end"},
		{"(state = 'x'", "'(' is not closed"},
		{"state IN 'x'", "IN needs a list"},
		{"state IN ('a' 'b')", "expected ',' or ')'"},
		{"state IN (kind)", "expected a value, found the name kind"},
		{"state LIKE kind", "LIKE needs a 'pattern'"},
		{"state IS 'x'", "expected NULL after IS"},
		{"fm.a..b = 1", "is not a field name"},
		{"a. = 1", "is not a field name"},
		{"state = 1x", "neither a number nor a name"},
		{"state = 1.2.3", "is not a number"},
		{"state = ?", "unexpected \"?\""},
		{"state = $1", "unexpected \"$\""},
		{"", "empty"},
		{strings.Repeat("(", 40) + "a = 1" + strings.Repeat(")", 40), "nests deeper"},
		{strings.Repeat("NOT ", 40) + "a = 1", "nests deeper"},
		{"a = '" + strings.Repeat("x", 3000) + "'", "at most"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.in)
		var fe *Error
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("filter.Compile(%.60q) err = %v, want a *filter.Error containing %q", tt.in, err, tt.err)
		}
	}
}
