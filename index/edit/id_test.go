package edit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Issue 41: file names were cut at byte offsets of their lower-cased copy,
// whose lengths differ from the name's (İ is 2 bytes, lower-cased 3; the
// Kelvin sign K 3, lower-cased 1).
func TestReplaceIDUnicode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, old, new, want string
		ok                 bool
	}{
		{"ȺȺȺȺT-1.md", "T-1", "T-5", "ȺȺȺȺT-5.md", true},                                          // panicked: index out of range
		{"İİT-1 dup.md", "T-1", "T-2", "İİT-2 dup.md", true},                                      // became İT-2-1 dup.md
		{"\u212a\u212a\u212aT-1 notes.md", "T-1", "T-5", "\u212a\u212a\u212aT-1 notes.md", false}, // became invalid UTF-8; K is the letter K: T-1 is no word there, as in KKKT-1
		{"KKKT-1 notes.md", "T-1", "T-5", "KKKT-1 notes.md", false},
		{"\u212a-1 notes.md", "K-1", "K-5", "K-5 notes.md", true}, // the Kelvin sign is a K
		{"\u212a-1 notes.md", "k-1", "K-5", "K-5 notes.md", true},
		{"k-1 notes.md", "\u212a-1", "K-5", "k-5 notes.md", true},
		{"ſ-1.md", "S-1", "S-2", "s-2.md", true}, // the long s is an s, in lower case
		{"aſ-1.md", "S-1", "S-2", "aſ-1.md", false},
		{"ſS-1.md", "S-1", "S-2", "ſS-1.md", false},
		{"éT-1.md", "t-1", "T-2", "éT-2.md", true},
		{"T-1é.md", "T-1", "T-2", "T-2é.md", true},
		{"日本T-1語.md", "T-1", "T-2", "日本T-2語.md", true},
		{"\xffT-1\xfe.md", "T-1", "T-2", "\xffT-2\xfe.md", true},
		{"T\xff-1.md", "T\xfe-1", "T-2", "T\xff-1.md", false},
		{"T\xff-1.md", "T\xff-1", "T-2", "T-2.md", true},
		{"İ-1.md", "i̇-1", "X-2", "İ-1.md", false}, // İ lower-cases to two characters: no simple fold
		{"ǅ-1.md", "ǆ-1", "X-2", "X-2.md", true},
		{"", "T-1", "T-2", "", false},
		{"T-1", "", "T-2", "T-1", false},
	} {
		got, ok := ReplaceID(c.in, c.old, c.new)
		if got != c.want || ok != c.ok {
			t.Errorf("ReplaceID(%q, %q, %q) = %q, %v; want %q, %v", c.in, c.old, c.new, got, ok, c.want, c.ok)
		}
	}
}

// A child id's suffix is cut after the parent's id as the child writes
// it, however long its characters are.
func TestFoldPrefix(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s, prefix string
		n         int
		ok        bool
	}{
		{"Ⱥ-1.2", "ⱥ-1", len("Ⱥ-1"), true},
		{"ⱥ-1.2", "Ⱥ-1", len("ⱥ-1"), true},
		{"\u212a-1.2", "k-1", len("\u212a-1"), true},
		{"k-1.2", "\u212a-1", 3, true},
		{"k-", "k-1", 0, false},
		{"x-1", "k-1", 0, false},
	} {
		n, ok := FoldPrefix(c.s, c.prefix)
		if n != c.n || ok != c.ok {
			t.Errorf("FoldPrefix(%q, %q) = %d, %v; want %d, %v", c.s, c.prefix, n, ok, c.n, c.ok)
		}
	}
}

// FuzzReplaceID: whatever the file name and ids, replaceID does not
// panic; when it replaces, the range it replaced is the id ignoring case
// (strings.EqualFold), standing as a word, the first such place, and
// every byte outside it is the name's own; the result is UTF-8 when the
// name and the new id are. When it does not replace, no window of the name
// is the id as a word. The check is a brute force over every window of
// the name, compared with strings.EqualFold.
func FuzzReplaceID(f *testing.F) {
	for _, s := range [][3]string{
		{"ȺȺȺȺT-1.md", "T-1", "T-5"},
		{"\u212a\u212a\u212aT-1 notes.md", "T-1", "T-5"},
		{"İİT-1 dup.md", "T-1", "T-2"},
		{"\u212a-1 notes.md", "K-1", "K-5"},
		{"task-12 - Title.md", "TASK-12", "task-40"},
		{"back-535.7 - Title.md", "BACK-535.7", "BACK-900.7"},
		{"\xffT-1.md", "t-1", "T-2"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, name, old, repl string) {
		got, ok := ReplaceID(name, old, repl)
		// The first window, by start, that is old as a word: the oracle,
		// for UTF-8 text.
		valid := utf8.ValidString(name) && utf8.ValidString(old)
		wi, wj := -1, -1
		if old != "" && valid {
		search:
			for i := 0; i < len(name); i++ {
				if !utf8.RuneStart(name[i]) {
					continue
				}
				for j := i + 1; j <= len(name); j++ {
					if (j == len(name) || utf8.RuneStart(name[j])) && strings.EqualFold(name[i:j], old) &&
						!wordBefore(name[:i]) && !wordAfter(name[j:]) {
						wi, wj = i, j
						break search
					}
				}
			}
		}
		if !ok {
			if got != name {
				t.Fatalf("ReplaceID(%q, %q, %q) = %q but says it replaced nothing", name, old, repl, got)
			}
			if wi >= 0 {
				t.Fatalf("ReplaceID(%q, %q, %q) missed %q at %d", name, old, repl, name[wi:wj], wi)
			}
			return
		}
		i, j, found := findID(name, old)
		if !found {
			t.Fatalf("findID(%q, %q) finds nothing, replaceID replaced", name, old)
		}
		if !strings.EqualFold(name[i:j], old) {
			t.Fatalf("ReplaceID(%q, %q) replaced %q, which is not the id", name, old, name[i:j])
		}
		if wordBefore(name[:i]) || wordAfter(name[j:]) {
			t.Fatalf("ReplaceID(%q, %q) replaced %q inside a word", name, old, name[i:j])
		}
		if valid && (i != wi || j != wj) {
			t.Fatalf("ReplaceID(%q, %q) replaced [%d:%d], the first is [%d:%d]", name, old, i, j, wi, wj)
		}
		mid := CaseLike(name[i:j], repl)
		if got != name[:i]+mid+name[j:] || !strings.HasPrefix(got, name[:i]) || !strings.HasSuffix(got, name[j:]) {
			t.Fatalf("ReplaceID(%q, %q, %q) = %q: bytes outside the id changed", name, old, repl, got)
		}
		if !strings.EqualFold(mid, repl) {
			t.Fatalf("ReplaceID(%q, %q, %q) wrote %q for the id", name, old, repl, mid)
		}
		if utf8.ValidString(name) && utf8.ValidString(repl) && !utf8.ValidString(got) {
			t.Fatalf("ReplaceID(%q, %q, %q) = %q: not UTF-8", name, old, repl, got)
		}
	})
}

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
		got, ok := ReplaceID(c.in, c.old, c.new)
		if got != c.want || ok != c.ok {
			t.Errorf("ReplaceID(%q, %q, %q) = %q, %v; want %q, %v", c.in, c.old, c.new, got, ok, c.want, c.ok)
		}
	}
}

func TestReplaceIDKeepsCase(t *testing.T) {
	if got, _ := ReplaceID("back-535.7 - Title.md", "BACK-535.7", "BACK-900.7"); got != "back-900.7 - Title.md" {
		t.Errorf("ReplaceID kept not the file name's case: %q", got)
	}
}
