package index

import (
	"strings"
	"testing"
)

func TestLabelsOf(t *testing.T) {
	for in, want := range map[string]string{
		`[["auth","api"],null]`:       "auth|api",
		`[null,"Backend, API"]`:       "Backend|API",
		`[["a","A"," b "],["b","c"]]`: "a|b|c",
		`[null,null]`:                 "",
		`[[1,true,{"x":1},""],"  "]`:  "1|true",
		`not json`:                    "",
		`[["x,y"]]`:                   "x|y",
	} {
		if got := strings.Join(labelsOf(in), "|"); got != want {
			t.Errorf("labelsOf(%s) = %q, want %q", in, got, want)
		}
	}
}
