package usecase

import (
	"testing"

	"github.com/canon-md/canon/index"
)

// TestClipText: a budget keeps section text in order, cuts the section
// that crosses it at a line's end and says how much it left out.
func TestClipText(t *testing.T) {
	v := &index.DocView{Sections: []index.Section{{Text: "aaaa\nbbbb\n"}, {Text: "cccc\ndddd\n"}, {Text: "eeee\n"}}}
	ClipText(v, 3) // 12 bytes: the first section (10) and nothing of the second's first line past 2
	if v.Sections[0].Text != "aaaa\nbbbb\n" || v.Sections[1].Text != "" || v.Sections[2].Text != "" || v.TextLeftOut != 4 {
		t.Errorf("clipped to %+v", v)
	}
	for _, budget := range []int{0, 3, 1 << 61, int(^uint(0) >> 1)} { // 3 tokens hold all 10 bytes; the others must not wrap
		w := &index.DocView{Sections: []index.Section{{Text: "aaaa\nbbbb\n"}}}
		if ClipText(w, budget); w.Sections[0].Text != "aaaa\nbbbb\n" || w.TextLeftOut != 0 {
			t.Errorf("budget %d clipped %+v", budget, w)
		}
	}
}
