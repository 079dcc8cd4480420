package docs

import (
	"encoding/json"
	"reflect"
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

// TestJSONArray: the fast path reads what encoding/json reads, and hands
// it anything else.
func TestJSONArray(t *testing.T) {
	for _, in := range []string{
		`[]`, `[null]`, `["a",null,["b","c"]]`, ` [ "a" , [ ] , null ] `, `[["x]y"],"z"]`, `["a\"b"]`, `["é", "\u00e9"]`,
		`[1,"a"]`, `[{"a":1}]`, `[[["deep"]]]`, `["a",]`, `[nullx]`, `["a"`, `x`, `["a" "b"]`,
	} {
		var want []any
		wantOK := json.Unmarshal([]byte(in), &want) == nil
		got, ok := jsonArray(in)
		if ok != wantOK || ok && !reflect.DeepEqual(normalize(got), normalize(want)) {
			t.Errorf("jsonArray(%s) = %#v %v, want %#v %v", in, got, ok, want, wantOK)
		}
	}
}

// normalize makes empty lists compare equal however they were made.
func normalize(vs []any) []any {
	out := []any{}
	for _, v := range vs {
		if l, ok := v.([]any); ok {
			v = normalize(l)
		}
		out = append(out, v)
	}
	return out
}
