package workset

import "testing"

func TestReplaceID(t *testing.T) {
	for _, c := range []struct {
		in, old, new, want string
		ok                 bool
	}{
		{"task-12 - Title.md", "task-12", "task-40", "task-40 - Title.md", true},
		{"task-120 - Title.md", "task-12", "task-40", "task-120 - Title.md", false},
		{"KB-TSK-0001_alpha.md", "kb-tsk-0001", "KB-TSK-0009", "KB-TSK-0009_alpha.md", true},
		{"XKB-1.md", "KB-1", "KB-2", "XKB-1.md", false},
		{"a-KB-1.md", "KB-1", "KB-2", "a-KB-2.md", true},
	} {
		got, ok := replaceID(c.in, c.old, c.new)
		if got != c.want || ok != c.ok {
			t.Errorf("replaceID(%q, %q, %q) = %q, %v; want %q, %v", c.in, c.old, c.new, got, ok, c.want, c.ok)
		}
	}
}

func TestReplaceIDKeepsCase(t *testing.T) {
	if got, _ := replaceID("back-535.7 - Title.md", "BACK-535.7", "BACK-900.7"); got != "back-900.7 - Title.md" {
		t.Errorf("replaceID kept not the file name's case: %q", got)
	}
}
