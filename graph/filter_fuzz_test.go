package graph

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/filter"
)

// FuzzCompileFilter feeds arbitrary text to the filter compiler. Whatever
// it accepts must be SQL made only of canon's own pieces: no quote, comment
// or statement separator from the input, one ? per argument, and it runs
// against a real index without a syntax error.
func FuzzCompileFilter(f *testing.F) {
	for _, s := range []string{
		"state = 'ready'",
		"state IN ('Ready', 'InProgress') AND priority <= 'P1'",
		"kind = 'task' AND NOT (state = 'Ready')",
		"external.jira_key = 'J-1' OR title LIKE 'b%'",
		"priority IS NOT NULL",
		"id = 'x'; DROP TABLE docs; --",
		"id = 'x' /* c */ OR \"id\" = [id]",
		"'it''s' = title",
		strings.Repeat("(", 40) + "id = 1" + strings.Repeat(")", 40),
		"a.b.c.d = 1.5e3 AND NOT NOT x <> TRUE",
		"id IN (" + strings.Repeat("1,", 300) + "1)",
	} {
		f.Add(s)
	}
	fx := newFixture(f, map[string]string{
		"a.md": item("A", "Task", "Ready", "priority: P0\nexternal:\n  jira_key: J-1\n", ""),
		"b.md": "# a note\n",
	})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, text string) {
		flt, err := filter.Compile(text)
		if err != nil {
			var fe *filter.Error
			if !errors.As(err, &fe) || fe.Msg == "" {
				t.Fatalf("%q: an error that is not a *filter.Error: %v", text, err)
			}
			return
		}
		for _, bad := range []string{"'", "\"", ";", "--", "/*", "[", "`"} {
			if strings.Contains(flt.SQL, bad) {
				t.Fatalf("%q compiled to SQL holding %q: %s", text, bad, flt.SQL)
			}
		}
		if n := strings.Count(flt.SQL, "?"); n != len(flt.Args) {
			t.Fatalf("%q: %d placeholders for %d arguments: %s", text, n, len(flt.Args), flt.SQL)
		}
		if _, err := filterKeys(ctx, fx.store, flt); err != nil {
			t.Fatalf("%q compiled to SQL that does not run: %s: %v", text, flt.SQL, err)
		}
	})
}
