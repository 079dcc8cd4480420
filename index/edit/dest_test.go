package edit

import (
	"strings"
	"testing"

	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// TestReplaceLinkDest: a link's destination is written as the link's
// syntax needs it (issue 41, re-run: check --fix wrote [a](Meeting
// notes.md), which is no link, [b](Hash#x.md), a link to Hash, and a
// crafted file name turned one link into a javascript: one), in the
// style of the destination it replaces, and read again.
func TestReplaceLinkDest(t *testing.T) {
	t.Parallel()
	crafted := "P>) [pwn](javascript:alert(1)) (x.md"
	for _, c := range []struct {
		name, line, old, repl, want string
	}{
		{"space", "- [a](meeting%20notes.md)", "meeting%20notes.md", "Meeting notes.md", "- [a](Meeting%20notes.md)"},
		{"hash", "- [b](hash%23x.md)", "hash%23x.md", "Hash#x.md", "- [b](Hash%23x.md)"},
		{"crafted, in the style of the original", "- [c](p%3E%29%20%5Bpwn%5D%28javascript:alert%281%29%29%20%28x.md)", "p%3E%29%20%5Bpwn%5D%28javascript:alert%281%29%29%20%28x.md", crafted,
			"- [c](P%3E%29%20%5Bpwn%5D%28javascript:alert%281%29%29%20%28x.md)"},
		{"crafted, plain original", "- [c](p.md)", "p.md", crafted, "- [c](P%3E%29%20[pwn]%28javascript:alert%281%29%29%20%28x.md)"},
		{"the text is the destination", "[notes.md](notes.md)", "notes.md", "Notes.md", "[notes.md](Notes.md)"},
		{"anchor kept", "See [a](foo.md#sec) here", "foo.md", "Foo bar.md", "See [a](Foo%20bar.md#sec) here"},
		{"query kept", "[a](b?plain=1)", "b?plain=1", "b.md", "[a](b.md?plain=1)"},
		{"angle brackets", "[a](<meeting notes.md>)", "meeting notes.md", "Meeting notes.md", "[a](<Meeting%20notes.md>)"},
		{"title kept", `[a](x.md "X")`, "x.md", "X (1).md", `[a](X%20%281%29.md "X")`},
		{"non-ASCII as the original", "[a](caf%c3%a9.md)", "caf%c3%a9.md", "Café 2.md", "[a](Caf%c3%a9%202.md)"},
		{"non-ASCII plain", "[a](café.md)", "café.md", "Café.md", "[a](Café.md)"},
		{"a scheme", "[a](x.md)", "x.md", "javascript:x.md", "[a](javascript%3Ax.md)"},
		{"a colon further on", "[a](x.md)", "x.md", "notes/a:b.md", "[a](notes/a:b.md)"},
		{"in a table", "| [a](x.md) | y |", "x.md", "a|b & `c`.md", "| [a](a%7Cb%20%26%20%60c%60.md) | y |"},
		{"an image", "![a](x.PNG)", "x.PNG", "my x.png", "![a](my%20x.png)"},
		{"a definition", "[r]: old.md", "old.md", "New file.md", "[r]: New%20file.md"},
		{"up a folder", "[a](../X.md)", "../X.md", "../x (1).md", "[a](../x%20%281%29.md)"},
		{"wiki-link", "[[docs/notes.md]]", "docs/notes.md", "docs/Notes.md", "[[docs/Notes.md]]"},
		{"wiki-link with an alias", "[[docs/notes.md|the notes]]", "docs/notes.md", "docs/Notes.md", "[[docs/Notes.md|the notes]]"},
	} {
		doc := j("---", "id: S-1", "---", "# S", "", c.line, "", "[other](other.md) [used][r]")
		col := strings.IndexAny(c.line, "[!") + 1
		out, errs := Replace([]byte(doc), []Replacement{{Line: 6, Col: col, Old: c.old, New: c.repl, In: "backlog/src.md"}})
		if errs[0] != nil {
			t.Errorf("%s: %v", c.name, errs[0])
			continue
		}
		if want := j("---", "id: S-1", "---", "# S", "", c.want, "", "[other](other.md) [used][r]"); string(out) != want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, out, want)
		}
	}
}

// TestReplaceLinkDestRefuses: what cannot be written so that the link
// names the file and nothing else is refused with one sentence, and the
// document is left as it was.
func TestReplaceLinkDestRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, line, old, repl, why string
	}{
		{"a wiki-link cannot hold a |", "[[notes]]", "notes", "a|b", "a wiki-link cannot name"},
		{"a wiki-link cannot hold a #", "[[notes]]", "notes", "a#b", "a wiki-link cannot name"},
		{"a query is cut", "[a](x.md)", "x.md", "x?.md", "cannot be written so that it names"},
		{"outside the repository", "[a](x.md)", "x.md", "../../x.md", "cannot be written so that it names"},
		{"no such link", "[a](x.md)", "y.md", "Y.md", "no longer holds a link to y.md"},
		{"an address", "<https://x.example/a.md>", "https://x.example/a.md", "b.md", "an address"},
	} {
		doc := j("# S", "", c.line)
		out, errs := Replace([]byte(doc), []Replacement{{Line: 3, Col: 1, Old: c.old, New: c.repl, In: "backlog/src.md"}})
		if errs[0] == nil || !strings.Contains(errs[0].Error(), c.why) {
			t.Errorf("%s: %v; want %q", c.name, errs[0], c.why)
		}
		if string(out) != doc {
			t.Errorf("%s: the document changed:\n%s", c.name, out)
		}
	}
	// In the frontmatter there is no link.
	doc := j("---", "see: x.md", "---", "[a](x.md)")
	if _, errs := Replace([]byte(doc), []Replacement{{Line: 2, Col: 1, Old: "x.md", New: "X.md", In: "a.md"}}); errs[0] == nil {
		t.Error("a destination replaced in the frontmatter")
	}
}

// TestReplaceLinkDestHostile: whatever a file is named, the link either
// names that file and nothing else once written, with every other link as
// it was, or it is not written.
func TestReplaceLinkDestHostile(t *testing.T) {
	t.Parallel()
	parts := []string{"a", "B", " ", "#", "%", "%20", "(", ")", "[", "]", "<", ">", "`", "|", "&", "&amp;", ":", "?", "\\", "\"", "'",
		"!", "*", "_", "~", "é", "\u202e", "\t", "\x01", ".md", "/", "..", "javascript:", "](", "[x](y)", "<b>", "--", "{{"}
	n, written := 0, 0
	for i := range parts {
		for k := range parts {
			for _, name := range []string{parts[i] + parts[k] + ".md", "x" + parts[i] + "y" + parts[k] + ".md", parts[i] + "/" + parts[k] + ".md"} {
				n++
				doc := j("# S", "", "- [t](old.md) and [u](other.md#a) `code`", "", "[w](w.md)")
				out, errs := Replace([]byte(doc), []Replacement{{Line: 3, Col: 3, Old: "old.md", New: name, In: "d/src.md"}})
				if errs[0] != nil {
					if string(out) != doc {
						t.Errorf("%q: refused (%v) but the document changed", name, errs[0])
					}
					continue
				}
				written++
				d := markdown.Parse("", out, &markdown.Options{})
				ls := d.Body.Links
				want := destTarget(Replacement{In: "d/src.md", New: name})
				if len(ls) != 3 || resolve.LinkTarget("d/src.md", ls[0].Dest, nil) != want || ls[0].Anchor != "" ||
					ls[1].Dest != "other.md" || ls[1].Anchor != "a" || ls[2].Dest != "w.md" {
					t.Errorf("%q: written as\n%s", name, out)
				}
			}
		}
	}
	if written < n*3/4 {
		t.Errorf("only %d of %d names written", written, n)
	}
}
