package human

import (
	"bytes"
	"testing"
)

func TestQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain title":          "plain title",
		`say "hi" \o/`:         `say "hi" \o/`,
		"é ü — ok":             "é ü — ok",
		"osc\x1b]52;c;SGk=\a!": `"osc\033]52;c;SGk=\a!"`,
		"two\nlines\r\t":       `"two\nlines\r\t"`,
		"del\x7f c1\u009b":     `"del\177 c1\302\233"`,
		"bad\xffutf8 \"q\"":    `"bad\377utf8 \"q\""`,
		"sep\u2028":            `"sep\342\200\250"`,
		// Invisible characters: a name holding one passes for another.
		"main\u202egnp.exe":   `"main\u202egnp.exe"`,
		"ma\u200bin":          `"ma\u200bin"`,
		"\u2066isolate\u2069": `"\u2066isolate\u2069"`,
		"soft\u00adhyphen":    `"soft\u00adhyphen"`,
		"bom\ufeff":           `"bom\ufeff"`,
		"filler\u3164":        `"filler\u3164"`,
		"mai\ufe0fn":          `"mai\ufe0fn"`,
		"tag\U000e0041":       `"tag\U000e0041"`,
		// An emoji's joiner and variation selector are part of its picture.
		"dev \U0001f469\u200d\U0001f4bb": "dev \U0001f469\u200d\U0001f4bb",
		"love \u2764\ufe0f":              "love \u2764\ufe0f",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
	if got := QuotePath(`a"b.md`); got != `"a\"b.md"` {
		t.Errorf("QuotePath = %s", got)
	}
	if got := QuotePath("docs/\u202edm.txt"); got != `"docs/\u202edm.txt"` {
		t.Errorf("QuotePath = %s", got)
	}
	if got := ShellQuote([]string{"x\u200by.md"}); got[0] != `"x\u200by.md"` {
		t.Errorf("ShellQuote = %s", got[0])
	}
}

func TestTerminal(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := Terminal(&b)
	for _, s := range []string{"line one\r\n", "\x1b]52;c;SGk=\a\x1b[2J", "tab\tok\n", "cr\rover", "del\x7f ", "c1 \xc2", "\x9b end\n", "é\n"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	want := "line one\r\n" + `\033]52;c;SGk=\a\033[2J` + "tab\tok\n" + `cr\rover` + `del\u007f ` + `c1 \u009b end` + "\né\n"
	if b.String() != want {
		t.Errorf("Terminal wrote\n%q\nwant\n%q", b.String(), want)
	}
}
