package search

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"
)

// Compounds (ADR-0047): a question writes "builtin" where the documents
// write "built-in" (two tokens to the tokenizer), or "file system" where
// they write "filesystem". A word no section holds is read as the other
// spelling when some section holds that one.

// Respelled is a word of a natural reading searched in the spelling the
// documents use: For as asked, Word as searched.
type Respelled struct {
	Word string `json:"word"`
	For  string `json:"for"`
}

// maxSplitRunes bounds the words tried in two parts: each split is a
// lookup.
const maxSplitRunes = 24

// respell rewrites r's words whose counts are 0 into the spelling some
// section holds: two such words in a row joined ("file system" →
// "filesystem"), a phrase of several tokens joined into one ("built in" →
// "builtin"), one word split in two where the documents hyphenate it
// ("builtin" → "built in", the most even split first). A natural reading's
// phrase is its word quoted, so the phrases follow the words. It reports
// whether it changed any.
func (k *ranker) respell(ctx context.Context, r *Reading, counts []int64) (bool, error) {
	var words []string
	changed := false
	for p := 0; p < len(r.Words); p++ {
		w := r.Words[p]
		if counts[p] != 0 {
			words = append(words, w)
			continue
		}
		if p+1 < len(r.Words) && counts[p+1] == 0 && !strings.Contains(w+r.Words[p+1], " ") && len(spellings(w+" "+r.Words[p+1])) == 1 {
			joined := w + r.Words[p+1]
			held, err := k.t.Holds(ctx, `"`+joined+`"`)
			if err != nil {
				return false, err
			}
			if held {
				r.Respelled = append(r.Respelled, Respelled{Word: joined, For: w + " " + r.Words[p+1]})
				words, changed = append(words, joined), true
				p++
				continue
			}
		}
		for _, alt := range spellings(w) {
			held, err := k.hyphenated(ctx, alt)
			if err != nil {
				return false, err
			}
			if held {
				r.Respelled = append(r.Respelled, Respelled{Word: alt, For: w})
				w, changed = alt, true
				break
			}
		}
		words = append(words, w)
	}
	if changed {
		r.Words, r.phrases = words, nil
		for _, w := range words {
			r.phrases = append(r.phrases, `"`+w+`"`)
		}
		r.all = strings.Join(r.phrases, " ")
	}
	return changed, nil
}

// rerank ranks r again when respell changes it (once a reading: a
// respelled reading is read as asked); done is false when it did not.
func (k *ranker) rerank(ctx context.Context, r *Reading, counts []int64, limit int) (docs []docRank, q string, total int, done bool, err error) {
	if len(r.Respelled) > 0 {
		return nil, "", 0, false, nil
	}
	changed, err := k.respell(ctx, r, counts)
	if err != nil || !changed {
		return nil, "", 0, err != nil, err
	}
	docs, q, total, err = k.rankNaturalAt(ctx, r, limit)
	return docs, q, total, true, err
}

// spellings are the other spellings of a word to try: its tokens joined,
// or (a single token of 6 to maxSplitRunes letters) its splits in two
// parts of 2 letters or more, the most even first.
func spellings(w string) []string {
	if strings.Contains(w, " ") {
		for _, t := range strings.Fields(w) {
			if utf8.RuneCountInString(t) < 2 {
				return nil // microsoft's is no compound
			}
		}
		return []string{strings.ReplaceAll(w, " ", "")}
	}
	n := utf8.RuneCountInString(w)
	if n < 6 || n > maxSplitRunes {
		return nil
	}
	runes := []rune(w)
	var out []string
	for d := 0; d <= n/2; d++ { // distance from the middle
		for _, i := range []int{n/2 - d, n/2 + d} {
			if i >= 2 && i <= n-2 && (d == 0 || i != n/2) && !slices.Contains(out, string(runes[:i])+" "+string(runes[i:])) {
				out = append(out, string(runes[:i])+" "+string(runes[i:]))
			}
		}
	}
	return out
}

// hyphenated reports whether the documents write the two parts of a split
// word ("built in") joined by a hyphen (built-in) in one of the first
// sections that hold them: the evidence that it is one word written in
// two, not two words that happen to spell it ("no table" for notable).
func (k *ranker) hyphenated(ctx context.Context, parts string) (bool, error) {
	a, b, ok := strings.Cut(parts, " ")
	if !ok {
		return k.t.Holds(ctx, `"`+parts+`"`)
	}
	texts, err := k.t.Texts(ctx, `"`+parts+`"`, 20)
	if err != nil {
		return false, err
	}
	joined := a + "-" + b
	for _, text := range texts {
		if strings.Contains(strings.ToLower(text), joined) {
			return true, nil
		}
	}
	return false, nil
}
