package check

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

var storedSeeds = []string{
	`{"id":"ADR-0001","title":"Keep","status":"Accepted","date":"2023-02-02","related_items":["KB-FTR-0478","KB-USR-2463"]}`,
	`{"id":[2,5],"title":[3,8],"status":[4,9]}`,
	`{}`, ` { "a" : [ 1 , 2 ] } `, `{"a":[1,2,3]}`, `{"a":[1]}`, `{"a":[-1,0]}`, `{"a":[1.5,2]}`, `{"a":[1e2,2]}`,
	`{"a":[99999999999999999999,1]}`, `{"a":"x"}`, `null`, `[]`, `"x"`, `{"a\u0062":1}`, "{\"\xff\":1}", `{"a":1,"a":2}`,
	`{"a":{"b":[1,{"c":"]}"}]},"d":null,"e":true,"f":-1.5e3}`, `{"a":"\"}"}`, `{"a":"é","b":"\u00e9"}`, "{\"a\":\"\xff\"}",
	`{"a":1`, `{"a":1}x`, ``, `{"a" 1}`,
}

// The fast paths give what json.Unmarshal gives, errors included.
func TestStoredDecodersMatchUnmarshal(t *testing.T) {
	t.Parallel()
	for _, s := range storedSeeds {
		sameAsUnmarshal(t, s)
	}
}

func FuzzStoredDecoders(f *testing.F) {
	for _, s := range storedSeeds {
		f.Add(s)
	}
	f.Fuzz(sameAsUnmarshal)
}

func sameAsUnmarshal(t *testing.T, s string) {
	var wantObj map[string]json.RawMessage
	gotObj, errGot := decodeObject(s)
	errWant := json.Unmarshal([]byte(s), &wantObj)
	if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(objectMap(gotObj), norm(wantObj)) {
		t.Errorf("decodeObject(%q) = %q, %v; json.Unmarshal: %q, %v", s, gotObj, errGot, wantObj, errWant)
	}
	for _, v := range wantObj {
		got, errGot := decodeValue(v)
		var want any
		errWant := json.Unmarshal(v, &want)
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeValue(%q) = %#v, %v; json.Unmarshal: %#v, %v", v, got, errGot, want, errWant)
		}
	}
	var wantPos map[string][2]int
	gotPos, errGot := decodePositions(s)
	errWant = json.Unmarshal([]byte(s), &wantPos)
	if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(positionMap(gotPos), positionMap(mapPositions(wantPos))) {
		t.Errorf("decodePositions(%q) = %v, %v; json.Unmarshal: %v, %v", s, gotPos, errGot, wantPos, errWant)
	}
}

// objectMap is what get finds of each key, nil for none.
func objectMap(fs fields) map[string]string {
	if len(fs) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, f := range fs {
		v, _ := fs.get(string(f.key))
		out[string(f.key)] = string(v)
	}
	return out
}

// positionMap is what get finds of each key, nil for none.
func positionMap(ps positions) map[string][2]int {
	if len(ps) == 0 {
		return nil
	}
	out := map[string][2]int{}
	for _, p := range ps {
		out[string(p.key)], _ = ps.get(string(p.key))
	}
	return out
}

func mapPositions(m map[string][2]int) positions {
	var ps positions
	for k, v := range m {
		ps = append(ps, position{[]byte(k), v})
	}
	return ps
}

// norm makes an empty raw value and an absent map comparable.
func norm(m map[string]json.RawMessage) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}
