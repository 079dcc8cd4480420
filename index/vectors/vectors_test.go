package vectors

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

const glove = `the 1 0 0 0
quietly 0.9 0.1 0 0
silently 0.9 0.12 0 0
loudly -0.5 0.5 0.1 0
Capital 1 1 1 1
x 1 1 1 1
s3 1 1 1 1
table 0 0 1 0.2
`

func mustRead(t *testing.T, text string, n int) *Table {
	t.Helper()
	tb, err := Read([]byte(text), n)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestReadGloVe(t *testing.T) {
	tb := mustRead(t, glove, 100)
	if got, want := strings.Join(tb.Words(), " "), "loudly quietly silently table the"; got != want {
		t.Fatalf("words %q, want %q (lower-case letters only, sorted)", got, want)
	}
	if tb.Dim() != 4 {
		t.Fatalf("dim %d", tb.Dim())
	}
	// The first n kept words of the file, in its order.
	if got := strings.Join(mustRead(t, glove, 2).Words(), " "); got != "quietly the" {
		t.Fatalf("first 2 words: %q", got)
	}
}

func TestReadWink(t *testing.T) {
	wink := `{"precision":8,"dimensions":4,"words":["the","quietly","silently",","],
	"vectors":{"the":[1,0,0,0,1,0],",":[0,0,0,1,1,3],"quietly":[0.9,0.1,0,0,0.9,1],"silently":[0.8,0.2,0,0,0.8,2]},"unkVector":[0,0,0,0,0,-1]}`
	tb := mustRead(t, wink, 2)
	if got := strings.Join(tb.Words(), " "); got != "quietly the" {
		t.Fatalf("words %q", got)
	}
	g := mustRead(t, "the 1 0 0 0\nquietly 0.9 0.1 0 0\n", 2)
	if !bytes.Equal(tb.Encode(), g.Encode()) {
		t.Fatal("wink's JSON and GloVe's text of the same vectors give different sidecars")
	}
}

func TestReadBad(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"wrong dims":      {"the 1 0 0 0\nquietly 1 0 0\n", "line 2: 3 numbers, not 4"},
		"NaN":             {"the 1 0 0 0\nquietly NaN 0 0 0\n", "not a finite number"},
		"Inf":             {"the 1 0 0 0\nquietly 1 +Inf 0 0\n", "not a finite number"},
		"not a number":    {"the 1 0 0 0\nquietly 1 zero 0 0\n", `"zero" is not a number`},
		"zero vector":     {"the 0 0 0 0\n", "no direction"},
		"no numbers":      {"the\n", "a word with no numbers"},
		"nothing kept":    {"THE 1 0\n, 1 0\n", "no lower-case word"},
		"empty":           {"", "no lower-case word"},
		"too many dims":   {"the" + strings.Repeat(" 1", MaxDims+1) + "\n", "at most 1024 dimensions"},
		"wink truncated":  {`{"dimensions":2,"words":["the"],"vectors":{"the":[1,0,1,0]`, "ends early"},
		"wink short":      {`{"dimensions":2,"words":["the"],"vectors":{"the":[1,1,0]}}`, "has 3 numbers, not 2"},
		"wink NaN":        {`{"dimensions":2,"words":["the"],"vectors":{"the":["NaN",1,1,0]}}`, "not a list of numbers"},
		"wink huge":       {`{"dimensions":2,"words":["the"],"vectors":{"the":[1e999,1,1,0]}}`, "not a finite number"},
		"wink order":      {`{"vectors":{"the":[1,1,1,0]},"dimensions":2,"words":["the"]}`, "before its dimensions and words"},
		"wink dims":       {`{"dimensions":0,"words":[],"vectors":{}}`, "says 0 dimensions"},
		"wink no vectors": {`{"dimensions":2,"words":["the"]}`, `no "vectors"`},
		"wink twice":      {`{"dimensions":2,"words":["ab"],"vectors":{"ab":[1,2,0,0]},"vectors":{"ab":[1,3,0,0]}}`, `"vectors" twice`},
		"wink redims":     {`{"dimensions":3,"words":["ab"],"vectors":{"ab":[1,2,3,0,0]},"dimensions":2,"words":["cd"],"vectors":{"cd":[1,2,0,0]}}`, "dimensions after its vectors"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Read([]byte(c.in), 10)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

func TestReadOversized(t *testing.T) {
	defer func(n int) { fileLimit = n }(fileLimit)
	fileLimit = 10
	if _, err := Read([]byte(glove), 10); err == nil || !strings.Contains(err.Error(), "the vectors file is longer than 10 bytes, the most canon reads; keep fewer words in it") {
		t.Fatalf("error %v, want the file refused as too large", err)
	}
}

func TestReadBoundsCells(t *testing.T) {
	dims := 1000
	var b strings.Builder
	word := []byte("aa")
	for i := 0; i < MaxCells/dims+5; i++ {
		word[0], word[1] = byte('a'+i/26%26), byte('a'+i%26)
		b.WriteString(string(word) + strings.Repeat(" 1", dims) + "\n")
		if i%676 == 675 {
			word = append(word, 'a') // distinct words past 676
		}
	}
	tb := mustRead(t, b.String(), MaxWords)
	if tb.Len()*tb.Dim() > MaxCells {
		t.Fatalf("%d words of %d dims: more than MaxCells", tb.Len(), tb.Dim())
	}
}

func TestEncodeDecode(t *testing.T) {
	tb := mustRead(t, glove, 100)
	enc := tb.Encode()
	back, err := Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Encode(), enc) {
		t.Fatal("Decode(Encode) does not give the same bytes")
	}
	if again := mustRead(t, glove, 100).Encode(); !bytes.Equal(again, enc) {
		t.Fatal("two imports of one file give different bytes")
	}
}

func TestDecodeDamaged(t *testing.T) {
	enc := mustRead(t, glove, 100).Encode()
	le := binary.LittleEndian
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(enc)) }
	for name, data := range map[string][]byte{
		"empty":     nil,
		"magic":     edit(func(b []byte) []byte { b[0] = 'X'; return b }),
		"version":   edit(func(b []byte) []byte { le.PutUint32(b[8:], 2); return b }),
		"dims 0":    edit(func(b []byte) []byte { le.PutUint32(b[12:], 0); return b }),
		"dims huge": edit(func(b []byte) []byte { le.PutUint32(b[12:], 1<<30); return b }),
		"count":     edit(func(b []byte) []byte { le.PutUint32(b[16:], MaxWords+1); return b }),
		"count+1":   edit(func(b []byte) []byte { le.PutUint32(b[16:], 6); return b }),
		"truncated": enc[:len(enc)-1],
		"longer":    append(bytes.Clone(enc), 0),
		"word":      edit(func(b []byte) []byte { b[21] = 'A'; return b }),              // loudly -> Aoudly
		"order":     edit(func(b []byte) []byte { copy(b[21:27], "zzzzzz"); return b }), // after quietly
		"word len":  edit(func(b []byte) []byte { b[20] = 200; return b }),
		"scale NaN": edit(func(b []byte) []byte {
			at := len(b) - 5*4 - 5*4
			le.PutUint32(b[at:], math.Float32bits(float32(math.NaN())))
			return b
		}),
		"scale 0": edit(func(b []byte) []byte { at := len(b) - 5*4 - 5*4; le.PutUint32(b[at:], 0); return b }),
		"scale 100x": edit(func(b []byte) []byte { // finite and positive, but cosines far above 1
			at := len(b) - 5*4 - 5*4
			le.PutUint32(b[at:], math.Float32bits(100*math.Float32frombits(le.Uint32(b[at:]))))
			return b
		}),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Decode(data); err == nil || !strings.Contains(err.Error(), "canon vectors remove") {
				t.Fatalf("error %v, want the sidecar refused as damaged", err)
			}
		})
	}
}

func TestNeighbours(t *testing.T) {
	tb := mustRead(t, glove, 100)
	got := tb.Neighbours("quietly", 2, 0.5, nil)
	if len(got) != 2 || got[0].Word != "silently" || got[1].Word != "the" {
		t.Fatalf("neighbours of quietly: %v", got)
	}
	if got[0].Cosine < 0.95 || got[0].Cosine > 1 {
		t.Fatalf("cosine of quietly and silently: %v, want about 0.98", got[0].Cosine)
	}
	if got := tb.Neighbours("quietly", 5, 0.5, func(w string) bool { return w != "silently" }); len(got) != 1 || got[0].Word != "the" {
		t.Fatalf("neighbours of quietly but silently: %v", got)
	}
	if got := tb.Neighbours("nowhere", 5, 0, nil); got != nil {
		t.Fatalf("a word not held has neighbours: %v", got)
	}
	// Ties go to the word first in order, whatever the file's order.
	tie := mustRead(t, "base 1 0\nzeta 0.5 0.5\nalpha 0.5 0.5\nmid 0.5 0.5\n", 10)
	got = tie.Neighbours("base", 2, 0, nil)
	if len(got) != 2 || got[0].Word != "alpha" || got[1].Word != "mid" {
		t.Fatalf("tied neighbours: %v, want alpha then mid", got)
	}
}

// BenchmarkNeighbours looks a word up among 20,000 of 100 dimensions, as
// a search does per word it bridges.
func BenchmarkNeighbours(b *testing.B) {
	words := make([]string, DefaultWords)
	bd := &builder{n: DefaultWords, dim: 100, seen: map[string]bool{}}
	x := uint32(1)
	v := make([]float64, 100)
	for i := range words {
		words[i] = fmt.Sprintf("w%c%c%c%c", 'a'+i/17576%26, 'a'+i/676%26, 'a'+i/26%26, 'a'+i%26)
		for j := range v {
			x = x*1664525 + 1013904223
			v[j] = float64(int32(x)) / (1 << 31)
		}
		if err := bd.add(words[i], v, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	t := bd.table()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Neighbours(words[i%len(words)], 3, 0.6, nil)
	}
}
