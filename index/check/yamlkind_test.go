package check

import "testing"

// TestYAMLKind: a date that YAML read as something else is described in
// words, never as Go prints it (map[YYYY-MM-DD:<nil>]).
func TestYAMLKind(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]any{"YYYY-MM-DD when decided": nil}, "{YYYY-MM-DD when decided}, which YAML reads as a mapping (quote a placeholder in braces)"},
		{map[string]any{"a": 1, "b": 2}, "a mapping"},
		{[]any{"2025-01-01"}, "a list"},
		{true, "true, a true/false value"},
		{20250101, "20250101"},
	} {
		if got := yamlKind(c.v); got != c.want {
			t.Errorf("yamlKind(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
