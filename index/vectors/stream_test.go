package vectors

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// gen is a vectors file made as it is read: head, then body repeated
// until size bytes or more are made, then tail. It never exists whole, so
// what a read holds is the reader's own; every MiB it notes the heap in
// use, at most.
type gen struct {
	head, body, tail []byte
	size, done       int
	at               []byte // what is left of the part being read
	part             int    // 0 head, 1 body, 2 tail, 3 the end
	nextSample, peak uint64
}

func (g *gen) Read(p []byte) (int, error) {
	if uint64(g.done) >= g.nextSample {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		g.peak = max(g.peak, m.HeapInuse)
		g.nextSample += 1 << 20
	}
	if g.part == 0 && g.at == nil {
		g.at = g.head
	}
	n := 0
	for n < len(p) {
		if len(g.at) == 0 {
			switch {
			case g.part == 0 || g.part == 1 && g.done < g.size:
				g.part, g.at = 1, g.body
			case g.part == 1:
				g.part, g.at = 2, g.tail
			default:
				g.part = 3
			}
			if g.part == 3 {
				break
			}
			continue
		}
		c := copy(p[n:], g.at)
		g.at, n, g.done = g.at[c:], n+c, g.done+c
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// TestReadFromStreams: reading a vectors file holds what the sidecar
// needs, not the file. A 48 MB GloVe file of words canon does not keep
// (read to its end), a wink file whose "words" list is 48 MB, and one
// whose "vectors" are 48 MB of words not kept each leave the heap within
// a few MiB (a 100 MB wink word list took 1.1 GB when the file was read
// whole and decoded at once).
func TestReadFromStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (48 MiB per stream; a smaller one would not tell a whole read from a streamed one): make test runs it")
	}
	const size = 48 << 20
	vec := strings.Repeat(" 0.12345", 100)
	cases := map[string]*gen{
		"glove, no word kept": {head: []byte("the" + vec + "\n"), body: []byte("Capital" + vec + "\n")},
		"wink words": {
			head: []byte(`{"dimensions":2,"words":["the"`),
			body: []byte(`,"aaaaaaaa"`),
			tail: []byte(`],"vectors":{"the":[1,0,1,0]}}`),
		},
		"wink vectors": {
			head: []byte(`{"dimensions":100,"words":["the"],"vectors":{"the":[1` + strings.Repeat(",0", 99) + `,1,0]`),
			body: []byte(`,"Capital":[` + strings.Repeat("0.12345,", 101) + `0.5]`),
			tail: []byte(`}}`),
		},
	}
	for name, g := range cases {
		t.Run(name, func(t *testing.T) {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			base := m.HeapInuse
			g.size = size
			tb, err := ReadFrom(g, 100)
			if err != nil {
				t.Fatal(err)
			}
			if tb.Len() != 1 || tb.Words()[0] != "the" {
				t.Fatalf("words %q, want the", tb.Words())
			}
			if g.done < size {
				t.Fatalf("read %d bytes of %d", g.done, size)
			}
			if grew := int64(g.peak) - int64(base); grew > 12<<20 {
				t.Errorf("reading %d MiB held %d MiB more of the heap; a read holds the words it keeps and a line", size>>20, grew>>20)
			}
		})
	}
}

// TestReadFromBounds: what the decoder would hold whole is bounded, each
// with a clear error: a GloVe line, a JSON text, number, run of spaces or
// word's vector over MaxLine bytes, lists nested past maxDepth, a file
// over fileLimit read as it comes.
func TestReadFromBounds(t *testing.T) {
	long := strings.Repeat("a", MaxLine+1)
	for name, c := range map[string]struct{ in, want string }{
		"glove line":   {"the 1 0\nquietly" + strings.Repeat(" 1", MaxLine/2+1) + "\n", "line 2 is longer than 1048576 bytes; a GloVe line is a word and its numbers"},
		"glove line 2": {"the" + strings.Repeat(" 1", MaxLine/2+1), "line 1 is longer than 1048576 bytes"},
		"wink text":    {`{"dimensions":2,"words":["` + long + `"]}`, "holds a word's vector, a text, a number or spaces longer than 1048576 bytes"},
		"wink key":     {`{"` + long + `":1}`, "longer than 1048576 bytes"},
		"wink number":  {`{"dimensions":1` + strings.Repeat("0", MaxLine) + `}`, "longer than 1048576 bytes"},
		"wink spaces":  {`{"dimensions":2` + strings.Repeat(" ", MaxLine+1) + `}`, "longer than 1048576 bytes"},
		"wink vector":  {`{"dimensions":2,"words":["the"],"vectors":{"the":[1` + strings.Repeat(",1", MaxLine/2) + `]}}`, "longer than 1048576 bytes"},
		"wink skipped": {`{"dimensions":2,"words":["the"],"vectors":{"Other":[1` + strings.Repeat(",1", MaxLine/2) + `]}}`, "longer than 1048576 bytes"},
		"wink nested":  {`{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "nests lists or objects more than 64 deep"},
		"wink dims":    {`{"dimensions":[1,2],"words":["the"],"vectors":{}}`, "dimensions are [, not a number"},
		"wink words":   {`{"dimensions":2,"words":"the","vectors":{}}`, `"words" is not a list`},
		"wink word":    {`{"dimensions":2,"words":[1],"vectors":{}}`, `"words" holds a number, not a word`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Read([]byte(c.in), 10)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
	defer func(n int) { fileLimit = n }(fileLimit)
	fileLimit = 1 << 20
	g := &gen{head: []byte(`{"dimensions":2,"words":["the"`), body: []byte(`,"Capital"`), size: 4 << 20}
	var tl *errTooLarge
	if _, err := ReadFrom(g, 10); !errors.As(err, &tl) || err.Error() != "the vectors file is longer than 1048576 bytes, the most canon reads; keep fewer words in it" {
		t.Fatalf("a wink file past the limit: %v", err)
	}
	if g.done > 2<<20 {
		t.Errorf("read %d bytes of a file past a limit of 1 MiB", g.done)
	}
}

// TestReadGloVeLines: a last line without a line end, CRLF, blank lines
// and a line longer than the reader's buffer are read as the scanner did.
func TestReadGloVeLines(t *testing.T) {
	wide := strings.Repeat(" 0.5", 1000) // 4 KB a line, past no bound
	in := "the 1" + wide + "\r\n\r\n\nquietly 0" + wide + "\r\nsilently 0.9" + wide
	tb := mustRead(t, in, 10)
	if got := strings.Join(tb.Words(), " "); got != "quietly silently the" || tb.Dim() != 1001 {
		t.Fatalf("words %q of %d dims", got, tb.Dim())
	}
	big := strings.Repeat(" 0.5"+strings.Repeat("0", 300), 1000) // a line of 300 KiB: past the reader's buffer, within MaxLine
	tb = mustRead(t, "ab"+big+"\ncd"+big+"\n", 10)
	if tb.Len() != 2 {
		t.Fatalf("long lines: %q", tb.Words())
	}
	if !bytes.Equal(mustRead(t, "the 1 0\nquietly 0 1", 10).Encode(), mustRead(t, "the 1 0\nquietly 0 1\n", 10).Encode()) {
		t.Fatal("the last line without its line end reads otherwise")
	}
}
