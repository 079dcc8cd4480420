// Package vectors holds word vectors for a natural search's vocabulary
// bridge (ADR-0050): a question's words that the documents do not use get
// their nearest words by cosine, which the search asks for too, weighed
// less. The vectors come from a file the user names (canon vectors
// import), never from the repository; what canon keeps is a derived
// sidecar beside the index (Encode, Decode): the most frequent lower-case
// words, each vector quantised to int8, sorted by word, deterministic
// bytes. Deleting it turns the bridge off.
//
// Both the file the user names and the sidecar are input: every read is
// bounded, and the sidecar's header and sizes are checked before its
// vectors are trusted.
//
// It imports nothing of canon's.
package vectors

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Bounds of what is read and kept.
const (
	// MaxFileBytes is the largest vectors file import reads: GloVe's 6B
	// 100d text is 347 MB, wink's JSON of it 307 MB.
	MaxFileBytes = 512 << 20
	// MaxDims is the most dimensions a vector may have.
	MaxDims = 1024
	// MaxWords is the most words a sidecar holds; DefaultWords is how many
	// import keeps: the most frequent, which a search looks neighbours up
	// among.
	MaxWords     = 200000
	DefaultWords = 20000
	// MaxCells bounds words × dimensions, what a search multiplies per word
	// it looks up (Neighbours): 5M int8 products take about 4 ms.
	MaxCells = 5000000
	// MaxWordLen is the longest word kept.
	MaxWordLen = 24
	// MaxSidecarBytes bounds a sidecar read.
	MaxSidecarBytes = 8 + 12 + MaxWords*(1+MaxWordLen+4) + MaxCells
)

// fileLimit is MaxFileBytes, lower in tests.
var fileLimit = MaxFileBytes

// magic starts a sidecar; version is its layout's.
const (
	magic   = "CANONVEC"
	version = 1
)

// Table is a sidecar's words and vectors: words sorted, each vector unit
// length before it was quantised to int8 (its largest component 127) with
// its scale kept, so cos(a, b) = dot(qa, qb) × scale[a] × scale[b].
type Table struct {
	dim   int
	words []string
	scale []float32
	vecs  []int8
}

// Dim is the vectors' dimensions.
func (t *Table) Dim() int { return t.dim }

// Len is how many words the table holds.
func (t *Table) Len() int { return len(t.words) }

// Words lists the table's words, sorted.
func (t *Table) Words() []string { return t.words }

// keep reports whether a word of a vectors file is kept: lower-case
// ASCII letters, 2 to MaxWordLen of them (the words a search reads; digits,
// punctuation and capitalised forms are not).
func keep(w string) bool {
	if len(w) < 2 || len(w) > MaxWordLen {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// builder collects the first n kept words of a file, in its order (the
// most frequent first), and their vectors.
type builder struct {
	n, dim int
	seen   map[string]bool
	words  []string
	vecs   [][]float64
}

func (b *builder) full() bool {
	return len(b.words) >= b.n || b.dim > 0 && (len(b.words)+1)*b.dim > MaxCells
}

// wants reports whether word w is to be kept.
func (b *builder) wants(w string) bool { return !b.full() && keep(w) && !b.seen[w] }

func (b *builder) add(w string, v []float64, where string) error {
	if len(v) != b.dim {
		return fmt.Errorf("%s: the vector of %q has %d numbers, not %d", where, w, len(v), b.dim)
	}
	norm := 0.0
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s: the vector of %q holds %v, not a finite number", where, w, x)
		}
		norm += x * x
	}
	if norm == 0 || math.IsInf(norm, 0) {
		return fmt.Errorf("%s: the vector of %q has no direction (its length is %v)", where, w, math.Sqrt(norm))
	}
	b.seen[w] = true
	b.words = append(b.words, w)
	b.vecs = append(b.vecs, v)
	return nil
}

// Read reads a vectors file's text: wink's JSON (an object with
// "dimensions", "words" in frequency order and "vectors", each word's
// numbers followed by two more) or GloVe's text (a word and its numbers a
// line, the most frequent first). It keeps the first n kept words (at most
// MaxWords, and MaxCells numbers in all) and returns them as a table. Any
// number that is not finite, or a vector of other dimensions than the
// first's, is an error.
func Read(data []byte, n int) (*Table, error) {
	if len(data) > fileLimit {
		return nil, fmt.Errorf("the vectors file is %d bytes; canon reads at most %d: keep fewer words in it", len(data), fileLimit)
	}
	n = min(max(n, 1), MaxWords)
	b := &builder{n: n, seen: map[string]bool{}}
	var err error
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		err = readWink(data, b)
	} else {
		err = readGloVe(data, b)
	}
	if err != nil {
		return nil, err
	}
	if len(b.words) == 0 {
		return nil, errors.New("the vectors file holds no lower-case word with a vector")
	}
	return quantise(b.dim, b.words, b.vecs), nil
}

// readGloVe reads GloVe's text: "word x1 ... xd" a line.
func readGloVe(data []byte, b *builder) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() && !b.full() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 {
			return fmt.Errorf("line %d: a word with no numbers; a GloVe file has a word and its vector a line", line)
		}
		if b.dim == 0 {
			if len(f)-1 > MaxDims {
				return fmt.Errorf("line %d: %d numbers; canon takes vectors of at most %d dimensions", line, len(f)-1, MaxDims)
			}
			b.dim = len(f) - 1
		}
		if len(f)-1 != b.dim {
			return fmt.Errorf("line %d: %d numbers, not %d as the first line", line, len(f)-1, b.dim)
		}
		if !b.wants(f[0]) {
			continue
		}
		v := make([]float64, b.dim)
		for i, s := range f[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fmt.Errorf("line %d: %q is not a number", line, s)
			}
			v[i] = x
		}
		if err := b.add(f[0], v, fmt.Sprintf("line %d", line)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return nil
}

// readWink reads wink's JSON: "dimensions" and "words" before "vectors".
func readWink(data []byte, b *builder) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil {
		return broken(fmt.Errorf("it does not start with an object: %w", err))
	} else if t != json.Delim('{') {
		return broken(errors.New("it does not start with an object"))
	}
	var order []string
	dims := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return broken(err)
		}
		switch t {
		case "dimensions":
			if b.dim != 0 {
				return errors.New(`the JSON vectors file says its dimensions after its vectors; wink's format says them once, first`)
			}
			if err := dec.Decode(&dims); err != nil {
				return broken(err)
			}
			if dims < 1 || dims > MaxDims {
				return fmt.Errorf("the JSON vectors file says %d dimensions; canon takes 1 to %d", dims, MaxDims)
			}
		case "words":
			if err := dec.Decode(&order); err != nil {
				return broken(err)
			}
		case "vectors":
			if b.dim != 0 {
				return errors.New(`the JSON vectors file has "vectors" twice; wink's format has it once`)
			}
			if dims == 0 || order == nil {
				return errors.New("the JSON vectors file has its vectors before its dimensions and words; wink's format has them first")
			}
			if err := readWinkVectors(dec, dims, order, b); err != nil {
				return err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return broken(err)
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return broken(err)
	}
	if b.dim == 0 {
		return errors.New(`the JSON vectors file has no "vectors" object`)
	}
	return nil
}

// broken says what is wrong with a JSON vectors file that does not parse.
func broken(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the JSON vectors file ends early (truncated?)")
	}
	return fmt.Errorf("the JSON vectors file is not wink's format: %w", err)
}

// readWinkVectors reads the "vectors" object: each word's dims numbers
// and two more (its length and its rank); it keeps the first b.n kept
// words of order.
func readWinkVectors(dec *json.Decoder, dims int, order []string, b *builder) error {
	b.dim = dims
	rank := map[string]int{}
	for _, w := range order {
		if _, ok := rank[w]; !ok && keep(w) && len(rank) < min(b.n, MaxCells/dims) {
			rank[w] = len(rank)
		}
	}
	found := make([][]float64, len(rank))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf(`the JSON vectors file's "vectors" is not an object`)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return broken(err)
		}
		w, _ := t.(string)
		r, ok := rank[w]
		if !ok {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return broken(err)
			}
			continue
		}
		var nums []json.Number
		if err := dec.Decode(&nums); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) {
				return broken(err)
			}
			return fmt.Errorf("the vector of %q is not a list of numbers: %w", w, err)
		}
		if len(nums) != dims+2 {
			return fmt.Errorf("the vector of %q has %d numbers, not %d and its length and rank", w, len(nums), dims)
		}
		v := make([]float64, dims)
		for i := range v {
			x, err := nums[i].Float64()
			if err != nil {
				return fmt.Errorf("the vector of %q holds %s, not a finite number", w, nums[i])
			}
			v[i] = x
		}
		found[r] = v
	}
	if _, err := dec.Token(); err != nil {
		return broken(err)
	}
	words := make([]string, len(rank))
	for w, r := range rank {
		words[r] = w
	}
	for r, v := range found {
		if v == nil {
			continue // a word listed with no vector
		}
		if err := b.add(words[r], v, "vectors"); err != nil {
			return err
		}
	}
	return nil
}

// quantise makes the table of words (distinct) and their vectors.
func quantise(dim int, words []string, vecs [][]float64) *Table {
	order := make([]int, len(words))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return words[order[a]] < words[order[b]] })
	t := &Table{dim: dim, words: make([]string, len(words)), scale: make([]float32, len(words)), vecs: make([]int8, len(words)*dim)}
	for i, o := range order {
		v := vecs[o]
		norm, top := 0.0, 0.0
		for _, x := range v {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		for _, x := range v {
			top = max(top, math.Abs(x/norm))
		}
		t.words[i] = words[o]
		q := t.vecs[i*dim : (i+1)*dim]
		sum := 0.0
		for j, x := range v {
			q[j] = int8(math.Round(x / norm / top * 127))
			sum += float64(q[j]) * float64(q[j])
		}
		t.scale[i] = float32(1 / math.Sqrt(sum)) // the quantised vector's own length: cos(a, a) = 1
	}
	return t
}

// Encode writes the table as a sidecar: magic, version, dimensions and
// count (uint32 little-endian), each word (a length byte and its letters),
// each scale (float32), then the vectors (int8), count × dimensions.
func (t *Table) Encode() []byte {
	var buf bytes.Buffer
	buf.WriteString(magic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint32(le.AppendUint32(le.AppendUint32(nil, version), uint32(t.dim)), uint32(len(t.words))))
	for _, w := range t.words {
		buf.WriteByte(byte(len(w)))
		buf.WriteString(w)
	}
	for _, s := range t.scale {
		buf.Write(le.AppendUint32(nil, math.Float32bits(s)))
	}
	for _, v := range t.vecs {
		buf.WriteByte(byte(v))
	}
	return buf.Bytes()
}

// Decode reads a sidecar Encode wrote, checking every size and word
// before it trusts the rest.
func Decode(data []byte) (*Table, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("the vectors sidecar is damaged (%s); run canon vectors remove, then import the vectors again", fmt.Sprintf(format, a...))
	}
	if len(data) > MaxSidecarBytes {
		return nil, bad("%d bytes, more than %d", len(data), MaxSidecarBytes)
	}
	if len(data) < len(magic)+12 || string(data[:len(magic)]) != magic {
		return nil, bad("no header")
	}
	le := binary.LittleEndian
	p := data[len(magic):]
	ver, dim, n := le.Uint32(p), le.Uint32(p[4:]), le.Uint32(p[8:])
	p = p[12:]
	if ver != version {
		return nil, bad("layout %d; this canon reads layout %d", ver, version)
	}
	if dim < 1 || dim > MaxDims || n < 1 || n > MaxWords || int(n)*int(dim) > MaxCells {
		return nil, bad("%d words of %d dimensions", n, dim)
	}
	t := &Table{dim: int(dim), words: make([]string, n), scale: make([]float32, n)}
	for i := range t.words {
		if len(p) < 1 || len(p) < 1+int(p[0]) {
			return nil, bad("it ends in word %d", i)
		}
		w := string(p[1 : 1+int(p[0])])
		p = p[1+int(p[0]):]
		if !keep(w) || i > 0 && w <= t.words[i-1] {
			return nil, bad("word %d is not a lower-case word in order", i)
		}
		t.words[i] = w
	}
	if len(p) != int(n)*4+int(n)*int(dim) {
		return nil, bad("%d bytes of vectors, not %d", len(p), int(n)*(4+int(dim)))
	}
	for i := range t.scale {
		s := math.Float32frombits(le.Uint32(p[i*4:]))
		if !(s > 0) || math.IsInf(float64(s), 0) {
			return nil, bad("word %d's scale is %v", i, s)
		}
		t.scale[i] = s
	}
	p = p[n*4:]
	t.vecs = make([]int8, len(p))
	for i, b := range p {
		t.vecs[i] = int8(b)
	}
	for i, s := range t.scale { // the quantised vector's own length, as written: a cosine stays within 1
		sum := 0.0
		for _, x := range t.vecs[i*int(dim) : (i+1)*int(dim)] {
			sum += float64(x) * float64(x)
		}
		if math.Abs(float64(s)*math.Sqrt(sum)-1) > 1e-3 {
			return nil, bad("word %d's scale %v does not match its vector", i, s)
		}
	}
	return t, nil
}

// Neighbour is a word near another, and their cosine.
type Neighbour struct {
	Word   string
	Cosine float64
}

// index finds w among the table's words.
func (t *Table) index(w string) (int, bool) {
	i := sort.SearchStrings(t.words, w)
	return i, i < len(t.words) && t.words[i] == w
}

// Has reports whether the table holds the word w.
func (t *Table) Has(w string) bool {
	_, ok := t.index(w)
	return ok
}

// Neighbours returns the words nearest w by cosine, best first, at least
// least, at most k, for which ok holds (nil: all); ties go to the word
// first in order. A word the table does not hold has none. It reads every
// vector once: words × dimensions multiplications.
func (t *Table) Neighbours(w string, k int, least float64, ok func(string) bool) []Neighbour {
	i, found := t.index(w)
	if !found || k <= 0 {
		return nil
	}
	d := t.dim
	a := t.vecs[i*d : (i+1)*d]
	var out []Neighbour
	for j := range t.words {
		if j == i {
			continue
		}
		c := float64(dot(a, t.vecs[j*d:(j+1)*d])) * float64(t.scale[i]) * float64(t.scale[j])
		if c < least || len(out) == k && c <= out[k-1].Cosine {
			continue
		}
		if ok != nil && !ok(t.words[j]) {
			continue
		}
		at := sort.Search(len(out), func(x int) bool { return out[x].Cosine < c })
		if len(out) < k {
			out = append(out, Neighbour{})
		}
		copy(out[at+1:], out[at:])
		out[at] = Neighbour{Word: t.words[j], Cosine: c}
	}
	return out
}

// dot is the dot product of two vectors of the same length, four
// products a step.
func dot(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}
