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
// vectors are trusted. The file is read as it comes (ReadFrom): an import
// holds the words it keeps, not the file.
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
// most frequent first), each vector quantised as it is read: what it
// holds is what the sidecar needs (a word, a scale, dim bytes), never the
// file's text or its numbers as floats.
type builder struct {
	n, dim int
	seen   map[string]bool
	words  []string
	scale  []float32
	vecs   []int8
}

func (b *builder) full() bool {
	return len(b.words) >= b.n || b.dim > 0 && (len(b.words)+1)*b.dim > MaxCells
}

// wants reports whether word w is to be kept.
func (b *builder) wants(w string) bool { return !b.full() && keep(w) && !b.seen[w] }

func (b *builder) add(w string, v []float64, where string) error {
	q, s, err := quantiseOne(w, v, b.dim, where)
	if err != nil {
		return err
	}
	b.seen[w] = true
	b.words = append(b.words, w)
	b.scale = append(b.scale, s)
	b.vecs = append(b.vecs, q...)
	return nil
}

// quantiseOne checks a vector (dim numbers, finite, not all 0) and
// quantises it: unit length, then its largest component 127; the scale
// is the quantised vector's own length, so that cos(a, a) = 1.
func quantiseOne(w string, v []float64, dim int, where string) ([]int8, float32, error) {
	if len(v) != dim {
		return nil, 0, fmt.Errorf("%s: the vector of %q has %d numbers, not %d", where, w, len(v), dim)
	}
	norm := 0.0
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, 0, fmt.Errorf("%s: the vector of %q holds %v, not a finite number", where, w, x)
		}
		norm += x * x
	}
	if norm == 0 || math.IsInf(norm, 0) {
		return nil, 0, fmt.Errorf("%s: the vector of %q has no direction (its length is %v)", where, w, math.Sqrt(norm))
	}
	norm = math.Sqrt(norm)
	top := 0.0
	for _, x := range v {
		top = max(top, math.Abs(x/norm))
	}
	q := make([]int8, dim)
	sum := 0.0
	for j, x := range v {
		q[j] = int8(math.Round(x / norm / top * 127))
		sum += float64(q[j]) * float64(q[j])
	}
	return q, float32(1 / math.Sqrt(sum)), nil
}

// table sorts what the builder kept by word into a Table.
func (b *builder) table() *Table {
	order := make([]int, len(b.words))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return b.words[order[x]] < b.words[order[y]] })
	d := b.dim
	t := &Table{dim: d, words: make([]string, len(order)), scale: make([]float32, len(order)), vecs: make([]int8, len(order)*d)}
	for i, o := range order {
		t.words[i], t.scale[i] = b.words[o], b.scale[o]
		copy(t.vecs[i*d:(i+1)*d], b.vecs[o*d:(o+1)*d])
	}
	return t
}

// MaxLine is the longest line of GloVe's text, and the longest word's
// vector, text, number or run of spaces of wink's JSON, that canon reads
// (each is held whole while it is read): 1,024 numbers take about 12 KiB,
// a word a few bytes.
const MaxLine = 1 << 20

// Read reads a vectors file's text (ReadFrom).
func Read(data []byte, n int) (*Table, error) { return ReadFrom(bytes.NewReader(data), n) }

// ReadFrom reads a vectors file as it comes: wink's JSON (an object with
// "dimensions", "words" in frequency order and "vectors", each word's
// numbers followed by two more) or GloVe's text (a word and its numbers a
// line, the most frequent first). It keeps the first n kept words (at most
// MaxWords, and MaxCells numbers in all) and returns them as a table. Any
// number that is not finite, or a vector of other dimensions than the
// first's, is an error.
//
// What it holds is bounded whatever the file: the words and int8 vectors
// it keeps, one line of GloVe's (or one vector, text or number of wink's)
// of at most MaxLine bytes, and the reader's buffer. More than
// MaxFileBytes is an error; a GloVe file is read only as far as the words
// it keeps.
func ReadFrom(r io.Reader, n int) (*Table, error) {
	n = min(max(n, 1), MaxWords)
	b := &builder{n: n, seen: map[string]bool{}}
	br := bufio.NewReaderSize(&limited{r: r, left: int64(fileLimit)}, 64<<10)
	first, err := firstByte(br)
	if err != nil {
		return nil, err
	}
	if first == '{' {
		err = readWink(br, b)
	} else {
		err = readGloVe(br, b)
	}
	if err != nil {
		return nil, err
	}
	if len(b.words) == 0 {
		return nil, errors.New("the vectors file holds no lower-case word with a vector")
	}
	return b.table(), nil
}

// errTooLarge is a vectors file past fileLimit.
type errTooLarge struct{ limit int }

func (e *errTooLarge) Error() string {
	return fmt.Sprintf("the vectors file is longer than %d bytes, the most canon reads; keep fewer words in it", e.limit)
}

// limited reads at most left bytes of r, and says so past them.
type limited struct {
	r    io.Reader
	left int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &errTooLarge{fileLimit}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, &errTooLarge{fileLimit}
	}
	return n, err
}

// firstByte is the first byte that is not a space, left unread (0 for an
// empty file).
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		c, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, br.UnreadByte()
		}
	}
}

// isSpace is a space between GloVe's fields.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// fields splits line into its fields, reusing out.
func fields(line []byte, out [][]byte) [][]byte {
	out = out[:0]
	for i := 0; i < len(line); {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if j > i {
			out = append(out, line[i:j])
		}
		i = j
	}
	return out
}

// readGloVe reads GloVe's text, "word x1 ... xd" a line, a line at a time,
// until the builder is full.
func readGloVe(br *bufio.Reader, b *builder) error {
	var f [][]byte
	var v []float64
	var long []byte // a line longer than the reader's buffer, gathered
	line := 0
	for !b.full() {
		text, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], text...)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= MaxLine {
				text, err = br.ReadSlice('\n')
				long = append(long, text...)
			}
			if len(long) > MaxLine {
				return fmt.Errorf("line %d is longer than %d bytes; a GloVe line is a word and its numbers", line+1, MaxLine)
			}
			text = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return readError(line+1, err)
		}
		if len(text) == 0 && err != nil {
			return nil // the end
		}
		line++
		if f = fields(text, f); len(f) == 0 {
			if err != nil {
				return nil
			}
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
		if w := string(f[0]); b.wants(w) {
			v = v[:0]
			for _, s := range f[1:] {
				x, perr := strconv.ParseFloat(string(s), 64)
				if perr != nil {
					return fmt.Errorf("line %d: %q is not a number", line, s)
				}
				v = append(v, x)
			}
			if err := b.add(w, v, fmt.Sprintf("line %d", line)); err != nil {
				return err
			}
		}
		if err != nil {
			return nil // the last line, without a line end
		}
	}
	return nil
}

// readError says what stopped a read at line.
func readError(line int, err error) error {
	var tl *errTooLarge
	if errors.As(err, &tl) {
		return err
	}
	return fmt.Errorf("line %d: %w", line, err)
}

// errLongValue is a JSON value the decoder would hold whole past MaxLine.
var errLongValue = fmt.Errorf("the JSON vectors file holds a word's vector, a text, a number or spaces longer than %d bytes; wink's are a few KiB at most", MaxLine)

// shortValues passes JSON through, refusing what the decoder would hold
// whole past max bytes: a text, a number, a run of spaces (the decoder
// keeps the spaces before a token), or a list or object inside the top
// object's values (a word's vector, decoded whole). The top object and
// its values, "words" and "vectors", are read a token at a time.
type shortValues struct {
	r                io.Reader
	max              int
	run              int // bytes of the text, number or spaces being read
	depth            int // lists and objects open
	inner            int // bytes of the list or object open at depth 3
	inText, escaping bool
	failed           bool
}

func (s *shortValues) Read(p []byte) (int, error) {
	if s.failed {
		return 0, errLongValue
	}
	n, err := s.r.Read(p)
	for _, c := range p[:n] {
		if s.depth >= 3 {
			if s.inner++; s.inner > s.max {
				s.failed = true
				return 0, errLongValue
			}
		}
		switch {
		case s.inText && s.escaping:
			s.escaping = false
		case s.inText && c == '\\':
			s.escaping = true
		case s.inText && c == '"':
			s.inText, s.run = false, 0
			continue
		case s.inText:
		case c == '"':
			s.inText, s.run = true, 0
			continue
		case c == '{' || c == '[':
			if s.depth++; s.depth == 3 {
				s.inner = 1
			}
			s.run = 0
			continue
		case c == '}' || c == ']':
			s.depth--
			s.run = 0
			continue
		case c == ',' || c == ':':
			s.run = 0
			continue
		}
		if s.run++; s.run > s.max {
			s.failed = true
			return 0, errLongValue
		}
	}
	return n, err
}

// readWink reads wink's JSON: "dimensions" and "words" before "vectors",
// a token at a time.
func readWink(br *bufio.Reader, b *builder) error {
	dec := json.NewDecoder(&shortValues{r: br, max: MaxLine})
	dec.UseNumber()
	if t, err := dec.Token(); err != nil {
		return broken(fmt.Errorf("it does not start with an object: %w", err))
	} else if t != json.Delim('{') {
		return broken(errors.New("it does not start with an object"))
	}
	var rank map[string]int // the first words kept, in the file's order
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
			t, err := dec.Token()
			if err != nil {
				return broken(err)
			}
			num, _ := t.(json.Number)
			d, err := num.Int64()
			if err != nil {
				return fmt.Errorf("the JSON vectors file's dimensions are %v, not a number; wink's format says them as one", t)
			}
			if d < 1 || d > MaxDims {
				return fmt.Errorf("the JSON vectors file says %d dimensions; canon takes 1 to %d", d, MaxDims)
			}
			dims = int(d)
		case "words":
			if rank, err = readWinkWords(dec, b.n); err != nil {
				return err
			}
		case "vectors":
			if b.dim != 0 {
				return errors.New(`the JSON vectors file has "vectors" twice; wink's format has it once`)
			}
			if dims == 0 || rank == nil {
				return errors.New("the JSON vectors file has its vectors before its dimensions and words; wink's format has them first")
			}
			if err := readWinkVectors(dec, dims, rank, b); err != nil {
				return err
			}
		default:
			if err := skipValue(dec); err != nil {
				return err
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

// readWinkWords reads the "words" list a word at a time and ranks the
// first n kept words; the others are read and dropped.
func readWinkWords(dec *json.Decoder, n int) (map[string]int, error) {
	if t, err := dec.Token(); err != nil {
		return nil, broken(err)
	} else if t != json.Delim('[') {
		return nil, errors.New(`the JSON vectors file's "words" is not a list; wink's format lists its words`)
	}
	rank := map[string]int{}
	var w string
	for dec.More() {
		if err := dec.Decode(&w); err != nil {
			var ut *json.UnmarshalTypeError
			if errors.As(err, &ut) {
				return nil, fmt.Errorf(`the JSON vectors file's "words" holds a %s, not a word; wink's format lists its words as texts`, ut.Value)
			}
			return nil, broken(err)
		}
		if _, dup := rank[w]; !dup && len(rank) < n && keep(w) {
			rank[w] = len(rank)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, broken(err)
	}
	return rank, nil
}

// maxDepth is how deep skipValue follows lists and objects: the decoder
// keeps a word for each level open.
const maxDepth = 64

// skipValue reads the next value and drops it, a token at a time.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return broken(err)
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if depth++; depth > maxDepth {
				return fmt.Errorf("the JSON vectors file nests lists or objects more than %d deep; wink's format nests two", maxDepth)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// broken says what is wrong with a JSON vectors file that does not parse.
func broken(err error) error {
	var tl *errTooLarge
	switch {
	case errors.As(err, &tl), errors.Is(err, errLongValue):
		return err
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON vectors file ends early (truncated?)")
	}
	return fmt.Errorf("the JSON vectors file is not wink's format: %w", err)
}

// readWinkVectors reads the "vectors" object: each word's dims numbers
// and two more (its length and its rank); it keeps the first b.n kept
// words of the ranked words (and MaxCells numbers in all), quantised as
// they come.
func readWinkVectors(dec *json.Decoder, dims int, rank map[string]int, b *builder) error {
	b.dim = dims
	slots := min(len(rank), b.n, MaxCells/dims)
	vecs := make([]int8, slots*dims)
	scale := make([]float32, slots) // 0: no vector yet
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		if err != nil {
			return broken(err)
		}
		return fmt.Errorf(`the JSON vectors file's "vectors" is not an object`)
	}
	v := make([]float64, 0, dims)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return broken(err)
		}
		w, _ := t.(string)
		r, ok := rank[w]
		if !ok || r >= slots {
			var skip json.RawMessage // at most MaxLine bytes (shortValues)
			if err := dec.Decode(&skip); err != nil {
				return broken(err)
			}
			continue
		}
		var nums []json.Number
		if err := dec.Decode(&nums); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, errLongValue) {
				return broken(err)
			}
			return fmt.Errorf("the vector of %q is not a list of numbers: %w", w, err)
		}
		if len(nums) != dims+2 {
			return fmt.Errorf("the vector of %q has %d numbers, not %d and its length and rank", w, len(nums), dims)
		}
		v = v[:0]
		for _, num := range nums[:dims] {
			x, err := num.Float64()
			if err != nil {
				return fmt.Errorf("the vector of %q holds %s, not a finite number", w, num)
			}
			v = append(v, x)
		}
		q, s, err := quantiseOne(w, v, dims, "vectors")
		if err != nil {
			return err
		}
		copy(vecs[r*dims:], q)
		scale[r] = s
	}
	if _, err := dec.Token(); err != nil {
		return broken(err)
	}
	words := make([]string, len(rank))
	for w, r := range rank {
		words[r] = w
	}
	for r := range slots {
		if scale[r] == 0 {
			continue // a word listed with no vector
		}
		b.seen[words[r]] = true
		b.words = append(b.words, words[r])
		b.scale = append(b.scale, scale[r])
		b.vecs = append(b.vecs, vecs[r*dims:(r+1)*dims]...)
	}
	return nil
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
