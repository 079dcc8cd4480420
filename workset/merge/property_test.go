package merge

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// doc is a canonical document as a model: the property test edits the
// model and renders it, so what both edits together should give is known.
type doc struct {
	title, status, updated string
	tags                   []string
	flow                   bool
	paras                  []string
	log                    []string // worklog entries, each one or more lines
}

func (d doc) clone() doc {
	d.tags = slices.Clone(d.tags)
	d.paras = slices.Clone(d.paras)
	d.log = slices.Clone(d.log)
	return d
}

func (d doc) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: T-1\ntitle: %s\nstatus: %s\nupdated: %s\n", d.title, d.status, d.updated)
	if d.flow {
		fmt.Fprintf(&b, "tags: [%s]\n", strings.Join(d.tags, ", "))
	} else {
		b.WriteString("tags:\n")
		for _, t := range d.tags {
			fmt.Fprintf(&b, "  - %s\n", t)
		}
	}
	b.WriteString("---\n# Title\n")
	for _, p := range d.paras {
		b.WriteString("\n" + p + "\n")
	}
	b.WriteString("\n## Worklog\n\n")
	for _, e := range d.log {
		b.WriteString(e + "\n")
	}
	return b.String()
}

var words = []string{"ran the tests", "fixed it", "same words", "| a | b |", "|---|---|", "wrote docs"}

// edited applies random edits of the kinds the driver merges alone. side
// picks what a side may touch, so that the two sides never change the
// same scalar or neighbouring paragraphs (those are real conflicts).
func edited(r *rand.Rand, d doc, side int, stamped bool) (doc, []string) {
	d = d.clone()
	var added []string
	for n := r.Intn(4); n > 0; n-- {
		e := "- " + words[r.Intn(len(words))]
		if stamped {
			e = fmt.Sprintf("- 2026-02-%02d %s", 1+r.Intn(28), words[r.Intn(len(words))])
		}
		if r.Intn(4) == 0 {
			e += "\n\n  ```sh\n  make test\n\n  ```"
		}
		d.log = append(d.log, e)
		added = append(added, e)
	}
	if r.Intn(2) == 0 {
		d.tags = append(d.tags, fmt.Sprintf("t%d", r.Intn(6)))
		d.tags = slices.Compact(d.tags)
		if slices.Index(d.tags, d.tags[len(d.tags)-1]) != len(d.tags)-1 {
			d.tags = d.tags[:len(d.tags)-1]
		}
	}
	if r.Intn(3) == 0 && len(d.tags) > 1 {
		d.tags = slices.Delete(d.tags, 0, 1)
	}
	if r.Intn(2) == 0 {
		d.updated = fmt.Sprintf("2026-03-%02d", 1+r.Intn(28))
	}
	if r.Intn(2) == 0 {
		if side == 0 {
			d.title = "Title by ours"
		} else {
			d.status = "done"
		}
	}
	if r.Intn(2) == 0 {
		d.paras[side*2] = fmt.Sprintf("Paragraph %d rewritten by side %d.", side*2, side)
	}
	return d, added
}

// TestMergeProperty: over random pairs of edits of the allowed kinds, the
// driver's result is what applying both edits gives (up to the order of
// appended entries and set items), without a conflict, whichever side is
// ours, and every worklog line is there as many times as the base and the
// two sides put it there.
func TestMergeProperty(t *testing.T) {
	lm := gitLines(t)
	n := 60
	if testing.Short() {
		n = 20
	}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		base := doc{title: "Title", status: "open", updated: "2026-01-01", tags: []string{"t0", "t1"}, flow: r.Intn(2) == 0,
			paras: []string{"Paragraph 0.", "Paragraph 1.", "Paragraph 2.", "Paragraph 3."}, log: []string{"- opened"}}
		stamped := r.Intn(2) == 0
		if stamped {
			base.log = []string{"- 2026-01-01 opened"}
		}
		ours, addA := edited(r, base, 0, stamped)
		theirs, addB := edited(r, base, 1, stamped)
		want := ours.clone()
		want.status, want.updated = theirs.status, max(ours.updated, theirs.updated)
		want.paras[2] = theirs.paras[2]
		want.log = append(want.log, addB...)
		for _, tg := range theirs.tags {
			if !slices.Contains(want.tags, tg) && !slices.Contains(base.tags, tg) {
				want.tags = append(want.tags, tg)
			}
		}
		want.tags = slices.DeleteFunc(want.tags, func(tg string) bool {
			return slices.Contains(base.tags, tg) && !slices.Contains(theirs.tags, tg)
		})
		for _, pair := range [][2]doc{{ours, theirs}, {theirs, ours}} {
			res, err := Merge([]byte(base.render()), []byte(pair[0].render()), []byte(pair[1].render()), Options{Lines: lm})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if res.Conflict || res.Fallback != "" {
				t.Fatalf("seed %d: conflict %v, fallback %q:\nbase:\n%s\nours:\n%s\ntheirs:\n%s\nmerged:\n%s",
					seed, res.Conflict, res.Fallback, base.render(), pair[0].render(), pair[1].render(), res.Merged)
			}
			if len(want.tags) == 0 {
				continue
			}
			if !sameLines(res.Merged, []byte(want.render())) {
				t.Fatalf("seed %d: merged:\n%s\nwant (up to order):\n%s", seed, res.Merged, want.render())
			}
			for _, e := range append(addA, addB...) {
				first := strings.SplitN(e, "\n", 2)[0]
				got := count(strings.Split(string(res.Merged), "\n"), first)
				n := count(base.log, first) + count(addA, first) + count(addB, first)
				if got != n {
					t.Fatalf("seed %d: %q is in the merge %d times, want %d:\n%s", seed, first, got, n, res.Merged)
				}
			}
		}
	}
}

func count(entries []string, first string) int {
	n := 0
	for _, e := range entries {
		if strings.SplitN(e, "\n", 2)[0] == first {
			n++
		}
	}
	return n
}
