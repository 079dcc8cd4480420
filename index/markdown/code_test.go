package markdown

import (
	"strings"
	"testing"
)

// backtickRuns are inline runs built to make code span searches rescan:
// runs of growing length that never close (each opener used to scan to
// the end), the same shrinking, lengths cycling so that every opener
// passes all the others, and runs longer than maxCodeTicks.
func backtickRuns(size int) map[string]string {
	grow := func(order func(k int) int) string {
		var b strings.Builder
		for k := 1; b.Len() < size; k++ {
			b.WriteString(strings.Repeat("`", order(k)))
			b.WriteByte('x')
		}
		return b.String()
	}
	return map[string]string{
		"growing":   grow(func(k int) int { return k }),
		"shrinking": grow(func(k int) int { return 1 + (size/64-k)%(size/64) }),
		"cycling":   grow(func(k int) int { return 1 + k%97 }),
		"too long":  grow(func(k int) int { return maxCodeTicks + k }),
	}
}

// TestCodeSpanSearchIsLinear: the bytes the code span searches pass grow
// with the text, not with the text times its backtick runs, in a
// paragraph, a heading and a link's text; a test of work done, not of time.
func TestCodeSpanSearchIsLinear(t *testing.T) {
	t.Parallel()
	for _, size := range []int{1 << 14, 1 << 17} {
		for name, run := range backtickRuns(size) {
			s := &scanner{doc: run, first: 1, commentAt: -1}
			s.scan()
			if s.code.work > 2*len(run) {
				t.Errorf("%s, %d bytes in a paragraph: the searches passed %d bytes", name, len(run), s.code.work)
			}
			for _, p := range []*textParser{{src: "# " + run}, {src: run, alt: true, bracketed: true}} {
				p.parse()
				if p.code.work > 2*len(p.src) {
					t.Errorf("%s, %d bytes of heading or link text: the searches passed %d bytes", name, len(p.src), p.code.work)
				}
			}
		}
	}
}

// TestCodeSpansAsCmark: what the record of earlier searches answers is
// what a scan would; a run of more than 1,000 backticks is text, as in
// cmark (a span it would open is not one).
func TestCodeSpansAsCmark(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("`", maxCodeTicks+1)
	for in, want := range map[string]string{
		"`a` ``b`` `c`` d`":  "a b c`` d",
		"``` ` `` ```x` `y`": "` ``x y`",
		"```a`` ` ``b``":     "```a`b``",
		"`` a ` ```b``` ``":  "a ` ```b```",
		long + "a" + long:    long + "a" + long,
		"` " + long + " `":   long,
		"`x" + long + "y`":   "x" + long + "y",
	} {
		if got := HeadingText(in); got != want {
			t.Errorf("HeadingText(%.40q) = %.40q, want %.40q", in, got, want)
		}
	}
}

func BenchmarkBacktickRuns(b *testing.B) {
	for _, size := range []int{1 << 16, 1 << 18, 1 << 20} {
		run := []byte(backtickRuns(size)["growing"])
		b.Run(itoa(size), func(b *testing.B) {
			b.SetBytes(int64(len(run)))
			for range b.N {
				ScanBody(run, 1)
			}
		})
	}
}
