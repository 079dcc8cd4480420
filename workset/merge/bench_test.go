package merge

import (
	"fmt"
	"strings"
	"testing"
)

// manyFields is the hostile sweep's case of issue 41: base n fields, ours
// adds one, theirs adds n.
func manyFields(n int) (base, ours, theirs string) {
	var b, t strings.Builder
	b.WriteString("---\nid: T-1\n")
	for i := range n {
		fmt.Fprintf(&b, "f%d: value %d\n", i, i)
	}
	t.WriteString(b.String())
	for i := range n {
		fmt.Fprintf(&t, "t%d: theirs %d\n", i, i)
	}
	base = b.String() + "---\n# T\n"
	ours = b.String() + "ours: added\n---\n# T\n"
	theirs = t.String() + "---\n# T\n"
	return base, ours, theirs
}

// longList is a list of n items; ours and theirs each add one.
func longList(n int) (base, ours, theirs string) {
	var b strings.Builder
	b.WriteString("---\nid: T-1\ntags:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - i%d\n", i)
	}
	base = b.String() + "---\n# T\n"
	ours = b.String() + "  - ours-1\n---\n# T\n"
	theirs = b.String() + "  - theirs-1\n---\n# T\n"
	return base, ours, theirs
}

// BenchmarkMerge runs the driver and git merge-file alone on the same
// three texts, so that the ratio is of one run on one machine
// (ADR-0041's target: the driver within 3x git merge-file).
func BenchmarkMerge(b *testing.B) {
	for _, c := range []struct {
		name string
		gen  func() (string, string, string)
	}{
		{"fields-2000", func() (string, string, string) { return manyFields(2000) }},
		{"fields-8000", func() (string, string, string) { return manyFields(8000) }},
		{"list-60000", func() (string, string, string) { return longList(60000) }},
	} {
		base, ours, theirs := c.gen()
		lm := gitLines(b)
		b.Run(c.name+"/driver", func(b *testing.B) {
			b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
			for b.Loop() {
				if _, err := Merge([]byte(base), []byte(ours), []byte(theirs), Options{Lines: lm}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/git-merge-file", func(b *testing.B) {
			b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
			for b.Loop() {
				if _, _, err := lm([]byte(base), []byte(ours), []byte(theirs)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
