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
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
	if got := QuotePath(`a"b.md`); got != `"a\"b.md"` {
		t.Errorf("QuotePath = %s", got)
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
