package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// Block and inline expectations (which lines are headings, which text is a
// link, what its destination is) were checked against cmark-gfm
// 0.29.0.gfm.6 with the autolink, table and strikethrough extensions, the
// renderer github.com uses; slugs against github-slugger 2.0.0. Wiki links
// and embeds are canon's own (Obsidian's syntax); cmark shows them as text.

func lnk(form LinkForm, line, col int, dest, anchor, text string) Link {
	return Link{Form: form, Dest: dest, Anchor: anchor, Text: text, Line: line, Col: col}
}

// hd is a heading as the tests write it: Raw is checked only when set.
type hd struct {
	level      int
	line       int
	text, slug string
	raw        string
}

func TestScanBodyLinks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want []Link
	}{
		{"inline link with anchor", "See [the design](docs/design.md#goals).",
			[]Link{lnk(FormMarkdown, 1, 5, "docs/design.md", "goals", "the design")}},
		{"same-file anchor", "Back to [the top](#overview).",
			[]Link{lnk(FormMarkdown, 1, 9, "", "overview", "the top")}},
		{"angle destination with spaces", "[notes](<my notes.md>)",
			[]Link{lnk(FormMarkdown, 1, 1, "my notes.md", "", "notes")}},
		{"title", `[spec](spec.md "The spec") and [b](b.md 'single') and [c](c.md (paren))`,
			[]Link{lnk(FormMarkdown, 1, 1, "spec.md", "", "spec"), lnk(FormMarkdown, 1, 32, "b.md", "", "b"), lnk(FormMarkdown, 1, 55, "c.md", "", "c")}},
		{"empty destination", "[x]()",
			[]Link{lnk(FormMarkdown, 1, 1, "", "", "x")}},
		{"nested brackets in text", "[a [b] c](d.md)",
			[]Link{lnk(FormMarkdown, 1, 1, "d.md", "", "a [b] c")}},
		{"balanced parentheses in destination", "[x](Pikachu_(Electric).md) after",
			[]Link{lnk(FormMarkdown, 1, 1, "Pikachu_(Electric).md", "", "x")}},
		{"unbalanced parenthesis ends destination", "([x](a.md))",
			[]Link{lnk(FormMarkdown, 1, 2, "a.md", "", "x")}},
		{"space in destination is not a link", "[x](a b.md)", nil},
		{"text with emphasis and code", "[**bold** `code`](x.md)",
			[]Link{lnk(FormMarkdown, 1, 1, "x.md", "", "bold code")}},
		{"image", "![Architecture](img/arch.png)",
			[]Link{lnk(FormImage, 1, 1, "img/arch.png", "", "Architecture")}},
		{"image inside link yields both", "[![CI](badge.svg)](ci.yml)",
			[]Link{lnk(FormMarkdown, 1, 1, "ci.yml", "", "CI"), lnk(FormImage, 1, 2, "badge.svg", "", "CI")}},
		{"link inside link: the inner one wins", "[a [b](in.md) c](out.md)",
			[]Link{lnk(FormMarkdown, 1, 4, "in.md", "", "b")}},
		{"reference definition", "Read [the spec][cm].\n\n[cm]: https://spec.commonmark.org/0.31.2/#links \"CommonMark\"",
			[]Link{lnk(FormMarkdown, 3, 1, "https://spec.commonmark.org/0.31.2/", "links", "cm")}},
		{"reference definitions in a row, angle destination", "[a]: a.md\n[b]: <b c.md>\n  [c]:\tc.md 'C'\n\n[a] [b] [c]",
			[]Link{lnk(FormMarkdown, 1, 1, "a.md", "", "a"), lnk(FormMarkdown, 2, 1, "b c.md", "", "b"), lnk(FormMarkdown, 3, 3, "c.md", "", "c")}},
		{"definition title on the next line", "[a]: a.md\n  \"Title\"\n\ntext [a]",
			[]Link{lnk(FormMarkdown, 1, 1, "a.md", "", "a")}},
		{"definition cannot interrupt a paragraph", "text\n[a]: a.md", nil},
		{"an unused definition is no link", "Nothing uses it.\n\n[alternatives]: #alternatives", nil},
		{"a reference uses a definition of any case and spacing", "See [The  Spec][].\n\n[the spec]: s.md",
			[]Link{lnk(FormMarkdown, 3, 1, "s.md", "", "the spec")}},
		{"a citation link is no wiki-link", "See [[1]](https://example.com/paper), [[全文]](https://x.y/z).",
			[]Link{lnk(FormMarkdown, 1, 5, "https://example.com/paper", "", "[1]"), lnk(FormMarkdown, 1, 39, "https://x.y/z", "", "[全文]")}},
		{"a wiki-link with no valid destination after it stays one", "[[x]](not a url",
			[]Link{lnk(FormWiki, 1, 1, "x", "", "x")}},
		{"definition over several lines", "[a]\n\n[a]:\n<a.md>\n'multi\nline title'",
			[]Link{lnk(FormMarkdown, 3, 1, "a.md", "", "a")}},
		{"label over two lines", "[a\nb]\n\n[a\nb]: ab.md",
			[]Link{lnk(FormMarkdown, 4, 1, "ab.md", "", "a\nb")}},
		{"the first definition of a label wins", "[a]\n\n[a]: one.md\n[A]: two.md",
			[]Link{lnk(FormMarkdown, 3, 1, "one.md", "", "a")}},
		{"control character in a destination", "[x](a\x01b.md)",
			[]Link{lnk(FormMarkdown, 1, 1, "a\x01b.md", "", "x")}},
		{"unbalanced parenthesis in a destination is no link", "[x](a(b.md)", nil},
		{"bare email addresses", "Mail team@example.com, or a.b-c_d+e@ex-ample.org. Not x@y or a@b@c.com.",
			[]Link{lnk(FormAutolink, 1, 6, "mailto:team@example.com", "", "team@example.com"),
				lnk(FormAutolink, 1, 27, "mailto:a.b-c_d+e@ex-ample.org", "", "a.b-c_d+e@ex-ample.org"),
				lnk(FormAutolink, 1, 64, "mailto:b@c.com", "", "b@c.com")}},
		{"full reference before parentheses uses the definition", "[a][b](c.md)\n\n[b]: b.md",
			[]Link{lnk(FormMarkdown, 3, 1, "b.md", "", "b")}},
		{"undefined reference before an inline link", "[a][b](c.md)",
			[]Link{lnk(FormMarkdown, 1, 4, "c.md", "", "b")}},
		{"a wiki-link around a defined label is a reference", "[[x]]\n\n[x]: x.md",
			[]Link{lnk(FormMarkdown, 3, 1, "x.md", "", "x")}},
		{"HTML comments and declarations as GitHub reads them (CommonMark 0.29)",
			"a <!--> [x](x.md) --> b <!-- a -- b [y](y.md) --> c <!-- [no](no.md) --> <!a [z](z.md)> <!A [no](no.md)>",
			[]Link{lnk(FormMarkdown, 1, 9, "x.md", "", "x"), lnk(FormMarkdown, 1, 37, "y.md", "", "y"),
				lnk(FormMarkdown, 1, 78, "z.md", "", "z")}},
		{"links may not hold a reference link", "[a [b] c](d.md) [[b]](e.md) [![i [b]](i.png)](f.md)\n\n[b]: b.md",
			[]Link{lnk(FormImage, 1, 30, "i.png", "", "i b"), lnk(FormMarkdown, 3, 1, "b.md", "", "b")}},
		{"brackets in a link's text that make no reference", "[[][0]](x.md) [a [c] d](y.md)",
			[]Link{lnk(FormMarkdown, 1, 1, "x.md", "", "[][0]"), lnk(FormMarkdown, 1, 15, "y.md", "", "a [c] d")}},
		{"a footnote label has no white space", "[^a b]\n\n[^a b]: ab.md",
			[]Link{lnk(FormMarkdown, 3, 1, "ab.md", "", "^a b")}},
		{"a line of a lone carriage return is blank", "[foo]:\n\r0\n[foo]", nil},
		{"footnote definition is not a link definition", "Note[^1].\n\n[^1]: See [x](x.md).",
			[]Link{lnk(FormMarkdown, 3, 11, "x.md", "", "x")}},
		{"reference uses add nothing", "[a][x] [x][] [x]\n\n[x]: x.md",
			[]Link{lnk(FormMarkdown, 3, 1, "x.md", "", "x")}},
		{"escaped brackets", `\[not a link\](x.md) and [a\]b](y.md)`,
			[]Link{lnk(FormMarkdown, 1, 26, "y.md", "", "a]b")}},
		{"autolink", "<https://example.com/docs#install>",
			[]Link{lnk(FormAutolink, 1, 1, "https://example.com/docs", "install", "https://example.com/docs#install")}},
		{"mailto and email autolinks", "<mailto:team@example.com> or <team@example.com>",
			[]Link{lnk(FormAutolink, 1, 1, "mailto:team@example.com", "", "mailto:team@example.com"),
				lnk(FormAutolink, 1, 30, "mailto:team@example.com", "", "team@example.com")}},
		// "<not a link>" is an HTML tag; the URL after a lone '<' is a bare one.
		{"not an autolink", "<not a link> and <https://x y>",
			[]Link{lnk(FormAutolink, 1, 19, "https://x", "", "https://x")}},
		{"bare URLs with trailing punctuation", "See https://example.com/a_(b)), and http://x.org. Or (https://y.org/p?q=1).",
			[]Link{lnk(FormAutolink, 1, 5, "https://example.com/a_(b)", "", "https://example.com/a_(b)"),
				lnk(FormAutolink, 1, 37, "http://x.org", "", "http://x.org"),
				lnk(FormAutolink, 1, 55, "https://y.org/p?q=1", "", "https://y.org/p?q=1")}},
		{"bare URL with fragment and entity", "https://x.org/a#frag&amp;",
			[]Link{lnk(FormAutolink, 1, 1, "https://x.org/a", "frag", "https://x.org/a#frag")}},
		{"bare URL needs a scheme word of its own", "xhttp://a.com and foo.http://b.com",
			[]Link{lnk(FormAutolink, 1, 23, "http://b.com", "", "http://b.com")}},
		{"underscore in the domain", "http://foo_bar.com/x and http://a.b_c.d/x", nil},
		{"bare URL inside link text is the link's text", "[https://a.com](https://b.com)",
			[]Link{lnk(FormMarkdown, 1, 1, "https://b.com", "", "https://a.com")}},
		{"www autolink", "Docs at www.example.com/docs.",
			[]Link{lnk(FormAutolink, 1, 9, "http://www.example.com/docs", "", "www.example.com/docs")}},
		{"wiki links", "[[KB-1]] [[KB-2|the parent]] [[KB-3#Goal]] [[#Local Heading]] [[KB-4#^block-1]]",
			[]Link{lnk(FormWiki, 1, 1, "KB-1", "", "KB-1"), lnk(FormWiki, 1, 10, "KB-2", "", "the parent"),
				lnk(FormWiki, 1, 30, "KB-3", "Goal", "KB-3#Goal"), lnk(FormWiki, 1, 44, "", "Local Heading", "#Local Heading"),
				lnk(FormWiki, 1, 63, "KB-4", "^block-1", "KB-4#^block-1")}},
		{"wiki heading with alias", "[[Design Notes#Open questions|questions]]",
			[]Link{lnk(FormWiki, 1, 1, "Design Notes", "Open questions", "questions")}},
		{"embed", "![[diagram.png]] and ![[Note#Section]]",
			[]Link{lnk(FormEmbed, 1, 1, "diagram.png", "", "diagram.png"), lnk(FormEmbed, 1, 22, "Note", "Section", "Note#Section")}},
		{"wiki alias escaped in a table", "| item | link |\n| --- | --- |\n| a | [[KB-9\\|nine]] |",
			[]Link{lnk(FormWiki, 3, 7, "KB-9", "", "nine")}},
		{"unclosed wiki link", "[[KB-1 and more\ntext]] [[]] [[a]", nil},
		{"wiki link in code span", "`[[KB-1]]`", nil},
		{"links in table cells", "| a | b |\n|---|:-:|\n| [x](x.md) | ![i](i.png) |\n\nafter",
			[]Link{lnk(FormMarkdown, 3, 3, "x.md", "", "x"), lnk(FormImage, 3, 15, "i.png", "", "i")}},
		{"link text across lines", "[multi\nline](ml.md)",
			[]Link{lnk(FormMarkdown, 1, 1, "ml.md", "", "multi\nline")}},
		{"link across lines in a block quote", "> see [the\n> doc](\n> doc.md)",
			[]Link{lnk(FormMarkdown, 1, 7, "doc.md", "", "the\ndoc")}},
		{"links in headings", "## See [x](x.md)\n\nSetext [y](y.md)\n---",
			[]Link{lnk(FormMarkdown, 1, 8, "x.md", "", "x"), lnk(FormMarkdown, 3, 8, "y.md", "", "y")}},
		{"links in lists and quotes", "- [a](a.md)\n  1. [b](b.md)\n> [c](c.md)\n> - [d](d.md)",
			[]Link{lnk(FormMarkdown, 1, 3, "a.md", "", "a"), lnk(FormMarkdown, 2, 6, "b.md", "", "b"),
				lnk(FormMarkdown, 3, 3, "c.md", "", "c"), lnk(FormMarkdown, 4, 5, "d.md", "", "d")}},
		{"HTML anchors are not recorded", `<a href="x.md">x</a> [y](y.md)`,
			[]Link{lnk(FormMarkdown, 1, 22, "y.md", "", "y")}},
		{"URL in an HTML attribute", `<img src="https://x.org/i.png"> text`, nil},
		{"Windows path as written", `[x](..\items\KB-1.md)`,
			[]Link{lnk(FormMarkdown, 1, 1, `..\items\KB-1.md`, "", "x")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScanBody([]byte(tt.src), 1).Links
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("links of %q:\n got  %s\n want %s", tt.src, fmtLinks(got), fmtLinks(tt.want))
			}
		})
	}
}

func TestScanBodyCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		src   string
		links []string // destinations
		heads []string // heading texts
	}{
		{"fenced code", "```go\n# not a heading\n[x](code.md)\n```\n[y](y.md)", []string{"y.md"}, nil},
		{"tilde fence with backticks in info", "~~~ js `x`\n[x](code.md)\n~~~\n# After", nil, []string{"After"}},
		{"longer fence closes only with as long a run", "````\n```\n[x](code.md)\n````\n[y](y.md)", []string{"y.md"}, nil},
		{"closing fence of the other character does not close", "```\n~~~\n[x](code.md)\n```\n# H", nil, []string{"H"}},
		{"unclosed fence runs to the end", "# Before\n```\n# inside\n[x](code.md)", nil, []string{"Before"}},
		{"fence indented three spaces", "   ```\n   [x](code.md)\n   ```\n[y](y.md)", []string{"y.md"}, nil},
		{"four spaces is not a fence", "text\n    ```\n[x](x.md)", []string{"x.md"}, nil},
		{"fence in a list item", "- item\n  ```sh\n  # comment\n  [x](code.md)\n  ```\n- next [y](y.md)", []string{"y.md"}, nil},
		{"fence in a block quote ends with it", "> ```\n> [x](code.md)\n[y](y.md)", []string{"y.md"}, nil},
		{"indented code after a blank line", "Para.\n\n    [x](code.md)\n    # not a heading\n\n[y](y.md)", []string{"y.md"}, nil},
		{"tab-indented code", "Para.\n\n\t[x](code.md)", nil, nil},
		{"indented line continues a paragraph", "Para\n    [x](x.md)", []string{"x.md"}, nil},
		{"text indented under a list item is not code", "- item\n\n    [x](x.md)", []string{"x.md"}, nil},
		{"code indented under a list item", "- item\n\n      [x](code.md)", nil, nil},
		{"code span", "`[x](code.md)` and ``a ` [y](code.md)`` and [z](z.md)", []string{"z.md"}, nil},
		{"code span across lines", "`a\n[x](code.md)` b", nil, nil},
		{"unclosed backtick is literal", "`[x](x.md)", []string{"x.md"}, nil},
		{"code span wins over link text", "[a`](x.md)`", nil, nil},
		{"HTML comment block", "<!--\n# not a heading\n[x](c.md)\n-->\n# After", nil, []string{"After"}},
		{"inline HTML comment", "a <!-- [x](c.md) --> [y](y.md)", []string{"y.md"}, nil},
		{"inline comment across lines", "a <!-- [x](c.md)\nb --> [y](y.md)", []string{"y.md"}, nil},
		{"a heading ends an unclosed inline comment", "a <!-- [x](c.md)\n# Head -->", []string{"c.md"}, []string{"Head -->"}},
		{"pre block", "<pre>\n[x](c.md)\n# not\n</pre>\n[y](y.md)", []string{"y.md"}, nil},
		{"HTML block until a blank line", "<div>\n[x](html.md)\n# not\n</div>\n\n# Yes", nil, []string{"Yes"}},
		{"markdown inside details after a blank line", "<details>\n<summary>More</summary>\n\n## Inside [x](x.md)\n\n</details>", []string{"x.md"}, []string{"Inside x"}},
		{"lone tag cannot interrupt a paragraph", "Para\n<span>\n[x](x.md)", []string{"x.md"}, nil},
		// The item starts with content (a definition), so a blank line does
		// not end it, and the line indented five is a heading in it (cmark
		// and goldmark agree). An item that starts blank is the empty one.
		{"a list item holding a definition goes on after a blank line", "- [r]: r.md\n\n     ### three [r]\n\nUses [r].", []string{"r.md"}, []string{"three r"}},
		{"an empty list item ends at a blank line", "-\n\n     ### three [r]\n\nUses [r].\n\n[r]: r.md", []string{"r.md"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := ScanBody([]byte(tt.src), 1)
			var links, heads []string
			for _, l := range b.Links {
				links = append(links, l.Dest)
			}
			for _, h := range b.Headings {
				heads = append(heads, h.Text)
			}
			if !reflect.DeepEqual(links, tt.links) {
				t.Errorf("links of %q = %q, want %q", tt.src, links, tt.links)
			}
			if !reflect.DeepEqual(heads, tt.heads) {
				t.Errorf("headings of %q = %q, want %q", tt.src, heads, tt.heads)
			}
		})
	}
}

func TestScanBodyHeadings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want []hd
	}{
		{"ATX levels", "# One\n## Two\n### Three\n#### Four\n##### Five\n###### Six",
			[]hd{{1, 1, "One", "one", ""}, {2, 2, "Two", "two", ""}, {3, 3, "Three", "three", ""},
				{4, 4, "Four", "four", ""}, {5, 5, "Five", "five", ""}, {6, 6, "Six", "six", ""}}},
		{"not ATX", "####### Seven\n#hashtag\n#5 bolt\n    # indented code", nil},
		{"closing sequence", "## Title ##\n# Title #####   \n### Title #not\n## \\#\n#\n# #",
			[]hd{{2, 1, "Title", "title", "Title"}, {1, 2, "Title", "title-1", "Title"},
				{3, 3, "Title #not", "title-not", "Title #not"}, {2, 4, "#", "", `\#`}, {1, 5, "", "-1", ""}, {1, 6, "", "-2", ""}}},
		{"indent up to three", "   ### Three spaces\n\t# tab is code", []hd{{3, 1, "Three spaces", "three-spaces", ""}}},
		{"tab after marker", "#\tTabbed", []hd{{1, 1, "Tabbed", "tabbed", ""}}},
		{"setext", "Title\n=====\n\nSub *title*\n---",
			[]hd{{1, 1, "Title", "title", "Title"}, {2, 4, "Sub title", "sub-title", "Sub *title*"}}},
		{"setext over two lines", "Multi\nline\n===", []hd{{1, 1, "Multi\nline", "multiline", "Multi\nline"}}},
		{"thematic break after a blank line", "Para\n\n---\n\n***", nil},
		{"frontmatter-looking block", "---\ntitle: Not frontmatter\n---\nbody",
			[]hd{{2, 2, "title: Not frontmatter", "title-not-frontmatter", ""}}},
		{"setext after a list item is a break", "- item\n---", nil},
		{"setext inside a list item", "- item\n  ---", []hd{{2, 1, "item", "item", ""}}},
		{"lazy line cannot be an underline", "> quote\n---\n> q2\n===", nil},
		{"definitions alone cannot be underlined", "[x]: x.md\n===", nil},
		{"setext after definitions", "[x]: x.md\nTitle\n---", []hd{{2, 2, "Title", "title", "Title"}}},
		{"table header is not a setext heading", "| a |\n|---|\n| b |\n---", nil},
		{"in block quote and list", "> # Quoted\n- ## Listed\n1. Setext in item\n   ===",
			[]hd{{1, 1, "Quoted", "quoted", ""}, {2, 2, "Listed", "listed", ""}, {1, 3, "Setext in item", "setext-in-item", ""}}},
		{"duplicates", "# Notes\n## Notes\n### Notes\n# Notes 1\n# Notes-1",
			[]hd{{1, 1, "Notes", "notes", ""}, {2, 2, "Notes", "notes-1", ""}, {3, 3, "Notes", "notes-2", ""},
				{1, 4, "Notes 1", "notes-1-1", ""}, {1, 5, "Notes-1", "notes-1-2", ""}}},
		{"inline markup", "## `ScanBody` and [links](x.md) *now* <kbd>Ctrl</kbd> &amp; ![img](i.png)",
			[]hd{{2, 1, "ScanBody and links now Ctrl & ", "scanbody-and-links-now-ctrl--", ""}}},
		{"emoji", "## ✨ Features\n## :rocket: Launch",
			[]hd{{2, 1, "✨ Features", "-features", ""}, {2, 2, ":rocket: Launch", "rocket-launch", ""}}},
		{"vertical tab and form feed are not blanks", "# \v\n\n0\n-\v\n\n#\v x", []hd{{1, 1, "\v", "", ""}}},
		{"an inline declaration needs white space after its name", "# <!A000>\n# <!DOCTYPE html>",
			[]hd{{1, 1, "<!A000>", "a000", ""}, {1, 2, "", "", ""}}},
		{"a lower-case declaration is no HTML block on GitHub", "<!a\n# b\n\n<!A\n# not", []hd{{1, 2, "b", "b", ""}}},
		{"a code span at the start of a line keeps its space", "00\n` `\n-", []hd{{2, 1, "00\n ", "00-", ""}}},
		{"a table needs as many header cells as delimiter cells, not a pipe", "a\n-:\n\nb | c\n-:\n-\n\n`d|e`\n-:\n-",
			[]hd{{2, 4, "b | c\n-:", "b--c-", ""}, {2, 8, "d|e\n-:", "de-", ""}}},
		{"a lone carriage return ends a line", "a\rb\r# c", []hd{{1, 3, "c", "c", ""}}},
		{"shortcut reference resolved", "## [1.2.0] - 2024-05-01\n## [WIP] Plan\n\n[1.2.0]: https://x/compare",
			[]hd{{2, 1, "1.2.0 - 2024-05-01", "120---2024-05-01", ""}, {2, 2, "[WIP] Plan", "wip-plan", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []hd
			for _, h := range ScanBody([]byte(tt.src), 1).Headings {
				raw := ""
				for _, w := range tt.want {
					if w.line == h.Line && w.raw != "" {
						raw = h.Raw
					}
				}
				got = append(got, hd{h.Level, h.Line, h.Text, h.Slug, raw})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("headings of %q:\n got  %+v\n want %+v", tt.src, got, tt.want)
			}
		})
	}
}

func TestScanBodySections(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		src   string
		first int
		want  []Section
	}{
		{"no headings", "\n\nJust text.\n\n", 1,
			[]Section{{Heading: -1, Start: 1, End: 4, Text: "Just text."}}},
		{"blank preamble is dropped", "\n\n# A\n\nbody a\n", 1,
			[]Section{{Heading: 0, Slug: "a", Start: 3, End: 5, Text: "body a"}}},
		{"preamble and sections", "Intro\n\n# A\n\n  indented a\n\n## B\nb1\n\nb2  \n\n# A\n", 10,
			[]Section{
				{Heading: -1, Start: 10, End: 11, Text: "Intro"},
				{Heading: 0, Slug: "a", Start: 12, End: 15, Text: "  indented a"},
				{Heading: 1, Slug: "b", Start: 16, End: 20, Text: "b1\n\nb2  "},
				{Heading: 2, Slug: "a-1", Start: 21, End: 21, Text: ""},
			}},
		{"setext heading text starts after the underline", "Title\n===\ntext\n\nSub\n---\n", 1,
			[]Section{{Heading: 0, Slug: "title", Start: 1, End: 4, Text: "text"}, {Heading: 1, Slug: "sub", Start: 5, End: 6, Text: ""}}},
		{"code stays in its section", "# A\n```\n# not\n```\n# B", 1,
			[]Section{{Heading: 0, Slug: "a", Start: 1, End: 4, Text: "```\n# not\n```"}, {Heading: 1, Slug: "b", Start: 5, End: 5}}},
		{"CRLF normalised", "# A\r\n\r\nline 1\r\nline 2\r\n\r\n# B\r\n", 1,
			[]Section{{Heading: 0, Slug: "a", Start: 1, End: 5, Text: "line 1\nline 2"}, {Heading: 1, Slug: "b", Start: 6, End: 6}}},
		{"no trailing newline", "# A\ntext", 1,
			[]Section{{Heading: 0, Slug: "a", Start: 1, End: 2, Text: "text"}}},
		{"empty body", "", 1, nil},
		{"comment blocks are left out", "<!-- top -->\nintro\n# A\n<!-- SECTION:BEGIN -->\nbody a\n<!--\nmany\nlines -->\nmore a\n<!-- END -->\n# B\n<!-- x --> shown\n   <!-- indented -->\nb\n", 1,
			[]Section{
				{Heading: -1, Start: 1, End: 2, Text: "intro"},
				{Heading: 0, Slug: "a", Start: 3, End: 10, Text: "body a\nmore a"},
				{Heading: 1, Slug: "b", Start: 11, End: 14, Text: "<!-- x --> shown\nb"},
			}},
		{"comments in code, a list, a quote stay", "# A\n```\n<!-- c -->\n```\n- <!-- l -->\n> <!-- q -->\n", 1,
			[]Section{{Heading: 0, Slug: "a", Start: 1, End: 6, Text: "```\n<!-- c -->\n```\n- <!-- l -->\n> <!-- q -->"}}},
		{"a comment never closed runs to the end", "# A\ntext\n<!-- open\n# not a heading\n", 1,
			[]Section{{Heading: 0, Slug: "a", Start: 1, End: 4, Text: "text"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScanBody([]byte(tt.src), tt.first).Sections
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sections of %q:\n got  %+v\n want %+v", tt.src, got, tt.want)
			}
		})
	}
}

func TestScanBodyPositions(t *testing.T) {
	t.Parallel()
	src := "---\n" + // line 5 of the file: the body starts after frontmatter
		"Ünïcödé [a](a.md)\n" +
		"\t[b](b.md) 日本語 [[c]]\n" +
		"😀 <https://d.org> https://e.org\n" +
		"> x [f\n" +
		"> g](f.md)\n" +
		"## Тема [h](h.md)\n"
	want := []Link{
		lnk(FormMarkdown, 6, 9, "a.md", "", "a"),
		lnk(FormMarkdown, 7, 2, "b.md", "", "b"),
		lnk(FormWiki, 7, 16, "c", "", "c"),
		lnk(FormAutolink, 8, 3, "https://d.org", "", "https://d.org"),
		lnk(FormAutolink, 8, 19, "https://e.org", "", "https://e.org"),
		lnk(FormMarkdown, 9, 5, "f.md", "", "f\ng"),
		lnk(FormMarkdown, 11, 9, "h.md", "", "h"),
	}
	b := ScanBody([]byte(src), 5)
	if !reflect.DeepEqual(b.Links, want) {
		t.Errorf("links:\n got  %s\n want %s", fmtLinks(b.Links), fmtLinks(want))
	}
	if len(b.Headings) != 1 || b.Headings[0].Line != 11 {
		t.Errorf("headings = %+v, want one on line 11", b.Headings)
	}
}

// CRLF line endings must give exactly what LF gives.
func TestScanBodyCRLF(t *testing.T) {
	t.Parallel()
	lf := backlogItem + "\n" + strings.Join([]string{
		"Title", "===", "", "> quote [q](q.md)", "> # Q", "", "- a", "", "      code", "",
		"[def]: d.md", "  'title'", "", "<!--", "c", "-->", "```", "# x", "```", "| a |", "|---|", "| [t](t.md) |",
		"[multi", "line](m.md) `co", "de` h", "", "    ",
	}, "\n")
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	a, b := ScanBody([]byte(lf), 3), ScanBody([]byte(crlf), 3)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("CRLF result differs from LF:\n LF   %+v\n CRLF %+v", a, b)
	}
}

// A document with no other links than ones in code must give none, and
// the same holds after any prefix of the document is cut (unclosed fences
// and comments swallow the rest, they never leak).
func TestScanBodyNothingInCode(t *testing.T) {
	t.Parallel()
	doc := "```\n[a](a.md)\n```\n~~~~\n[[b]]\n~~~~\n    [c](c.md)\n\n`[d](d.md)`\n<!--\n[e](e.md)\n-->\n<pre>\nhttps://f.org\n</pre>"
	for i := 0; i <= len(doc); i++ {
		if links := ScanBody([]byte(doc[:i]), 1).Links; len(links) > 0 {
			if i < len(doc) && strings.HasSuffix(doc[:i], "`") {
				continue // a cut code span may leave its content as text
			}
			cut := doc[:i]
			if strings.Count(cut, "`[d](d.md)") == 1 && !strings.HasSuffix(cut, "`[d](d.md)`") {
				continue
			}
			t.Errorf("prefix %q: links %s", cut, fmtLinks(links))
		}
	}
}

// ScanBody reuses scratch memory across calls; concurrent calls must not
// see each other's.
func TestScanBodyConcurrent(t *testing.T) {
	t.Parallel()
	docs := []string{backlogItem, "# A\n> [x](x.md)\n> b", "- a\n  - b [[c]]\n\n# D\n", strings.Repeat("[l](l.md) ", 500)}
	want := make([]Body, len(docs))
	for i, d := range docs {
		want[i] = ScanBody([]byte(d), 1)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % len(docs)
				if got := ScanBody([]byte(docs[i]), 1); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("doc %d differs when scanned concurrently", i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func fmtLinks(links []Link) string {
	var b strings.Builder
	for _, l := range links {
		fmt.Fprintf(&b, "\n   %s %d:%d dest=%q anchor=%q text=%q", l.Form, l.Line, l.Col, l.Dest, l.Anchor, l.Text)
	}
	return b.String()
}

// checkBody asserts ScanBody's invariants for any input.
func checkBody(t *testing.T, src []byte, first int, b Body) {
	t.Helper()
	src = []byte(loneCRs(string(src))) // a lone CR ends a line, as in CommonMark
	lines := strings.Count(string(src), "\n")
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	last := first + lines - 1
	inRange := func(what string, line int) {
		if line < first || line > last {
			t.Fatalf("%s line %d outside %d..%d", what, line, first, last)
		}
	}
	fileLines := strings.Split(string(src), "\n")
	seen := map[string]bool{}
	prev := first - 1
	for _, h := range b.Headings {
		inRange("heading", h.Line)
		if h.Level < 1 || h.Level > 6 {
			t.Fatalf("heading level %d", h.Level)
		}
		if h.Line <= prev {
			t.Fatalf("headings out of order: line %d after %d", h.Line, prev)
		}
		prev = h.Line
		if seen[h.Slug] {
			t.Fatalf("duplicate slug %q", h.Slug)
		}
		seen[h.Slug] = true
		if h.Text != HeadingText(h.Raw) && !strings.Contains(h.Raw, "]") {
			t.Fatalf("heading text %q, HeadingText(%q) = %q", h.Text, h.Raw, HeadingText(h.Raw))
		}
	}
	pl, pc := first-1, 0
	for _, l := range b.Links {
		inRange("link", l.Line)
		if l.Line < pl || l.Line == pl && l.Col < pc {
			t.Fatalf("links out of order: %d:%d after %d:%d", l.Line, l.Col, pl, pc)
		}
		pl, pc = l.Line, l.Col
		if l.Form < FormMarkdown || l.Form > FormEmbed {
			t.Fatalf("link form %d", l.Form)
		}
		line := strings.TrimSuffix(fileLines[l.Line-first], "\r")
		if l.Col < 1 || l.Col > utf8.RuneCountInString(line) {
			t.Fatalf("link column %d outside line %q", l.Col, line)
		}
		r := []rune(line)[l.Col-1]
		if !strings.ContainsRune("[!<hHfFwW", r) {
			t.Fatalf("link %+v starts at %q", l, r)
		}
	}
	// Sections: an optional preamble, then one per heading, in order,
	// each starting at its heading and ending before the next.
	secs := b.Sections
	if len(secs) > 0 && secs[0].Heading == -1 {
		if secs[0].Start != first || secs[0].Text == "" {
			t.Fatalf("bad preamble %+v", secs[0])
		}
		secs = secs[1:]
	}
	if len(secs) != len(b.Headings) {
		t.Fatalf("%d sections for %d headings", len(secs), len(b.Headings))
	}
	for i, s := range secs {
		h := b.Headings[i]
		if s.Heading != i || s.Slug != h.Slug || s.Start != h.Line || s.End < s.Start {
			t.Fatalf("section %d = %+v for heading %+v", i, s, h)
		}
		inRange("section end", s.End)
		if i+1 < len(secs) && s.End != secs[i+1].Start-1 {
			t.Fatalf("section %d ends on %d, next starts on %d", i, s.End, secs[i+1].Start)
		}
		if strings.Contains(s.Text, "\r\n") {
			t.Fatalf("section text has CRLF: %q", s.Text)
		}
	}
}

func FuzzScanBody(f *testing.F) {
	seeds := []string{
		backlogItem,
		"# A\n## A\nText [x](y.md#z) [[w|v]] ![[e]] <https://u> http://v.w\n",
		"> - ```\n>   # in fence\n>   ```\n- [a\n  b](c)\n",
		"Title\n===\n[d]: e\n  'f'\n| a |\n|---|\n| [[b\\|c]] |\n",
		"<!--\n# c\n-->\n<div>\n[x](y)\n\n    code\n\t# tab\n",
		"`a\n[b](c)` *d* **e** ~~f~~ &amp; \\[g\\](h)\r\n# Head #\r\n",
		"- a\n  - b\n    - c [deep](deep.md)\n1) x\n\n   ***\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, src []byte, first int) {
		first %= 1000 // any start line works; keep them readable
		b := ScanBody(src, first)
		checkBody(t, src, first, b)
		crlf := []byte(strings.ReplaceAll(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n", "\r\n"))
		if !strings.Contains(string(src), "\r") && utf8.Valid(src) {
			if c := ScanBody(crlf, first); !reflect.DeepEqual(b, c) {
				t.Fatalf("CRLF differs from LF for %q", src)
			}
		}
	})
}

// backlogItem is a realistic backlog item body (about 3 KB) of the kind
// canon indexes: headings, prose with Markdown and wiki links, a checklist,
// a table, code and a worklog.
const backlogItem = `# Context

Since the PSD2 strong customer authentication deadline, issuers in the EEA soft-decline card
payments that arrive without 3-D Secure data. Our decline rate for Swedish and German cards
went from 4 % to 11 % in two months (see [the dashboard](https://grafana.example.com/d/pay?orgId=1#declines)).

3-D Secure 2 (the EMVCo specification, see https://www.emvco.com/emv-technologies/3-d-secure/)
lets the issuer decide between a frictionless flow and a challenge inside an iframe.

## Goal

Every card payment that needs authentication gets it without leaving checkout. Two stories
carry this: [completing the challenge](../../userstory/0000/KB-USR-0001_complete-3ds-challenge.md)
and [frictionless payments](../../userstory/0000/KB-USR-0002_frictionless-payments.md#scope).

## Approach

Use the PSP's hosted 3DS2 SDK; the reasoning is in [[ADR-0001_hosted-3ds2-sdk|the SDK decision]].
The webhook wins over the client callback, which is why this leans on [[KB-FTR-0002]] and
[[KB-FTR-0005#Risk score|the risk score]]. The flow:

` + "```" + `mermaid
sequenceDiagram
  # not a heading
  Shopper->>SDK: [pay](not-a-link.md)
` + "```" + `

| Step | Owner | Link |
| --- | --- | --- |
| Container layout | web | [KB-TSK-0001](../../task/0000/KB-TSK-0001_integrate-3ds2-sdk.md) |
| Resume after challenge | web | [[KB-TSK-0002]] |
| Exemptions | payments | ![flow](img/exemptions.png) |

## Acceptance Criteria

- [x] SDK loaded on the payment step behind ` + "`payments_v2`" + `
- [ ] Challenge renders at 320 px width and in Safari private mode
- [ ] Shopper returns to the same checkout step, cart intact
- [ ] Soft-decline rate for EEA cards back under **5 %**

## Risks / Dependencies

Safari's cookie rules break some challenge pages; see [the iframe bug][bug]. Fraud screening
(![[fraud-screening.png]]) sends its score with the exemption request.

<!-- TODO: link the PSP runbook once it exists: [runbook](runbook.md) -->

[bug]: ../../bug/0000/KB-BUG-0002_blank-challenge-iframe-safari.md "Blank iframe"

## Notes

1. The PSP sandbox only simulates challenges for cards listed in
   [their test card table](https://docs.psp.example/testing#3ds2-cards); keep a copy in
   ` + "`docs/testing.md`" + `.
2. Exemption rules differ per acquirer:
   - Nordics: low-value exemption under 30 EUR, see [[ADR-0004_exemption-policy#Nordics]].
   - Germany: issuers ignore TRA requests below 100 EUR (measured, not documented).
3. Open question for the guild: do we retry a soft decline once with a challenge,
   or surface it to the shopper? Tracked in [KB-TSK-0003](../../task/0000/KB-TSK-0003_request-sca-exemptions.md).

> **Note**
> The old payment form stays behind the flag until the decline rate is back under 5 %.

## Worklog

2024-11-11 13:20 [agent=aisha.rahman] Feature drafted with the payment guild.
2024-12-05 09:00 [agent=codex] SDK integration task created and linked.
2025-02-01 15:45 [agent=aisha.rahman] Challenge flow live in SE and DK; decline rate 6.2 %.
`

func BenchmarkScanBody(b *testing.B) {
	src := []byte(backlogItem)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		ScanBody(src, 24)
	}
}

// TestHeadingAttributeIDs: "## Title { #id }" (mdBook, Pandoc, kramdown,
// attr_list) makes #id an anchor beside the heading's GitHub slug; braces
// that are not an attribute block make none.
func TestHeadingAttributeIDs(t *testing.T) {
	b := ScanBody([]byte("#### Poor interaction with deref { #overload }\n\n## Plain {#plain .wide data-x=1}\n\n## Set {a, b}\n\n## Code `{#x}` here\n"), 1)
	got := strings.Join(b.Anchors, ",")
	if got != "overload,plain" {
		t.Errorf("anchors %q, want overload,plain", got)
	}
	if b.Headings[0].Slug != "poor-interaction-with-deref--overload-" {
		t.Errorf("the GitHub slug changed: %q", b.Headings[0].Slug)
	}
}
