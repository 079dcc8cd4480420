package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Expectations, unless a case says otherwise, were checked against
// github-slugger 2.0.0 (npm, the slug() export) run under Node 20; cases
// marked "fixture" are taken from its test/fixtures.json.
func TestSlug(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, want string
	}{
		{"plain", "Overview", "overview"},
		{"spaces become hyphens", "Acceptance Criteria", "acceptance-criteria"},
		{"punctuation dropped", "Risks / Dependencies", "risks--dependencies"},
		{"snake_case kept", "snake_case_name", "snake_case_name"},
		{"dots dropped (fixture)", "heading with a period.txt", "heading-with-a-periodtxt"},
		{"version numbers", "v1.2.3 (2024-01-02)", "v123-2024-01-02"},
		{"C++", "C++", "c"},
		{"C# and F#", "C# & F#", "c--f"},
		{"what's new", "What's new?", "whats-new"},
		{"typographic apostrophe (fixture)", "apostrophe’s should be trimmed", "apostrophes-should-be-trimmed"},
		{"brackets and parens (fixture)", "exchange.bind_headers(exchange, routing [, bindCallback])", "exchangebind_headersexchange-routing--bindcallback"},
		{"hyphens kept (fixture)", "heading with a - dash", "heading-with-a---dash"},
		{"en dash dropped (fixture)", "en–dash", "endash"},
		{"German letters", "Ä Ö Ü ß", "ä-ö-ü-ß"},
		{"accents kept", "Café résumé naïve", "café-résumé-naïve"},
		{"Japanese", "日本語の見出し", "日本語の見出し"},
		{"Cyrillic (fixture)", "Профили пользователей", "профили-пользователей"},
		{"mixed scripts (fixture)", "Привет non-latin 你好", "привет-non-latin-你好"},
		{"emoji removed", "✨ Features", "-features"},
		// U+FE0F VARIATION SELECTOR-16 is a mark (Mn), so it survives.
		{"emoji with variation selector", "⚠️ Warning", "\ufe0f-warning"},
		{"emoji between words (fixture)", "😄-😄 unicode emoji", "--unicode-emoji"},
		{"emoji shortcode kept as text", ":sparkles: Features", "sparkles-features"},
		{"two shortcodes (fixture)", ":ok_hand: :hatched_chick: Two in a row", "ok_hand-hatched_chick-two-in-a-row"},
		{"symbol between spaces (fixture)", "I ♥ unicode", "i--unicode"},
		{"leading and trailing spaces kept (fixture)", " a ", "-a-"},
		{"each space is a hyphen", "a   b", "a---b"},
		{"tab is a control character", "a\tb", "ab"},
		{"no-break space dropped", "a\u00a0b", "ab"},
		{"superscript digit is No", "x² + y²", "x--y"},
		{"roman numeral is Nl", "Chapter Ⅻ", "chapter-ⅻ"},
		{"circled letter is Alphabetic", "Ⓐ plan", "ⓐ-plan"},
		{"dotted capital I lowers to i + U+0307", "İstanbul", "i\u0307stanbul"},
		{"final sigma", "ΟΔΗΓΟΣ ΧΡΗΣΗΣ", "οδηγος-χρησης"},
		{"sigma inside a word", "ΣΑΣ", "σας"},
		{"invalid UTF-8 dropped", "a\xffb", "ab"},
		{"empty", "", ""},
		{"only punctuation", "!!!", ""},
		{"already a slug", "already-a-slug_1", "already-a-slug_1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Slug(tt.text); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// Sequences from github-slugger's test/fixtures.json (one slugger for the
// whole fixture file; the sequences here are its runs of related cases).
func TestSluggerNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		texts []string
		want  []string
	}{
		{"repetition", []string{"echo", "echo", "echo 1", "echo-1", "echo"},
			[]string{"echo", "echo-1", "echo-1-1", "echo-1-2", "echo-2"}},
		{"suffix written first", []string{"foxtrot-1", "foxtrot", "foxtrot"},
			[]string{"foxtrot-1", "foxtrot", "foxtrot-2"}},
		{"three times", []string{"golf", "golf", "golf"},
			[]string{"golf", "golf-1", "golf-2"}},
		{"different texts, same slug", []string{"Hello, World", "hello world", "HELLO WORLD!"},
			[]string{"hello-world", "hello-world-1", "hello-world-2"}},
		{"empty slugs", []string{"!!!", "???", "🎉"},
			[]string{"", "-1", "-2"}},
		{"prototype names are plain keys", []string{"__proto__", "__proto__", "constructor"},
			[]string{"__proto__", "__proto__-1", "constructor"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Slugger
			for i, text := range tt.texts {
				if got := s.Next(text); got != tt.want[i] {
					t.Errorf("Next(%q) #%d = %q, want %q", text, i, got, tt.want[i])
				}
			}
		})
	}
}

// Expectations were checked against the text content of cmark-gfm
// 0.29.0.gfm.6's HTML for "## " + raw (extensions autolink, table,
// strikethrough), the renderer behind github.com, except where a case says
// otherwise.
func TestHeadingText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want string
	}{
		{"plain", "Overview", "Overview"},
		{"code span", "The `parse()` function", "The parse() function"},
		{"code span with backticks", "`` a`b ``", "a`b"},
		{"unclosed backtick", "a `b", "a `b"},
		{"link", "See [the guide](guide.md)", "See the guide"},
		{"link with title", `[a](b "t")`, "a"},
		{"link text with emphasis", "[link *emph*](x)", "link emph"},
		{"full reference", "[text][label]", "text"}, // HeadingText alone takes the label as defined
		{"collapsed reference", "[label][]", "label"},
		{"shortcut reference stays literal", "[WIP] Checkout", "[WIP] Checkout"}, // literal unless defined (ScanBody resolves)
		{"image has no text", "![logo](logo.png) Title", " Title"},
		{"image inside link", "[![badge](b.svg)](ci)", ""},
		{"autolink", "<https://example.com>", "https://example.com"},
		{"email autolink", "<a@b.co>", "a@b.co"},
		{"html tags dropped", "<kbd>Ctrl</kbd>+C", "Ctrl+C"},
		{"html comment dropped", "a <!-- note --> b", "a  b"},
		{"not a tag", "a < b > c", "a < b > c"},
		{"entities", "Q&amp;A &copy; &#35; &#x41;", "Q&A © # A"},
		{"unknown entity", "&bogus; &amp", "&bogus; &amp"},
		{"backslash escapes", `\*not emphasis\* \_ \# \\`, `*not emphasis* _ # \`},
		{"backslash before letter stays", `a\b`, `a\b`},
		{"emphasis", "*a* **b** _c_ __d__", "a b c d"},
		{"strikethrough", "~~old~~ new", "old new"},
		{"intraword underscores", "snake_case_name", "snake_case_name"},
		{"dunder is strong", "The __init__ method", "The init method"},
		{"unmatched underscore", "_private fields", "_private fields"},
		{"intraword star is emphasis", "foo*bar*baz", "foobarbaz"},
		{"lone stars", "2 * 3 * 4", "2 * 3 * 4"},
		{"unbalanced strong", "**a*", "*a"},
		{"nested emphasis", "*(**foo**)*", "(foo)"},
		{"rule of three", "*foo**bar**baz*", "foobarbaz"},
		{"three tildes are not strikethrough", "~~~x~~~", "~~~x~~~"},
		{"emoji shortcode", ":sparkles: Features", ":sparkles: Features"},
		{"link destination with parens", "[a](b(c)d) e", "a e"},
		{"brackets not a link", "[a] (b)", "[a] (b)"},
		{"line break spaces", "a  \nb", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HeadingText(tt.raw); got != tt.want {
				t.Errorf("HeadingText(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"Hello World", "✨ Features", "ΟΔΗΓΟΣ", "İ", "a\xffb", " x "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Slug(text)
		if !utf8.ValidString(got) {
			t.Fatalf("Slug(%q) = %q is not valid UTF-8", text, got)
		}
		if strings.ContainsAny(got, " \t\n") {
			t.Fatalf("Slug(%q) = %q has whitespace", text, got)
		}
		if again := Slug(got); again != got {
			t.Fatalf("Slug is not idempotent: %q -> %q -> %q", text, got, again)
		}
		_ = HeadingText(text) // must not panic
	})
}
