package layout

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// ErrNoSample says there is no document of the kind to learn from.
var ErrNoSample = errors.New("no document of the kind to learn its layout from")

// ErrFormat says the documents of the kind are written in a way canon
// does not compose (TOML frontmatter).
var ErrFormat = errors.New("the documents of the kind are not written in YAML frontmatter")

// Sample is one document of the kind a new one is written like.
type Sample struct {
	// Path is slash-separated, from the repository's root.
	Path    string
	Content []byte
	// ID is its id, or its record number when the kind has no ids
	// (adr-tools' 0012-title.md).
	ID string
}

// sample is a Sample parsed.
type sample struct {
	Sample
	doc   *markdown.Document
	title string // its title, without the number a heading starts with
	done  bool
	lines []string
	num   int
}

// Item is what a new document says.
type Item struct {
	// ID is its id, or its number when the kind's documents have none.
	ID, Title string
	// State, Parent and UID fill the fields of those roles ("" leaves
	// them empty).
	State, Parent, UID string
	// Set are other fields, in order; a list field takes every value
	// given for it.
	Set []Field
	// Body is the text of its first section (its description).
	Body string
	// Now dates it.
	Now time.Time
	// Refs are the fields that hold references (the configuration's
	// edges, lower-cased): never copied from another document.
	Refs map[string]bool
	// ParentFields are the fields of the parent edge (parent,
	// parent_task_id): the parent goes in the one the samples use.
	ParentFields map[string]bool
	// ParentField is the field the parent goes in when no sample writes
	// one (Backlog.md reads parent_task_id alone); "" is parent.
	ParentField string
	// StateField is the field the repository keeps the state in besides
	// state and status (states.field: stage), lower-cased; "" for none.
	StateField string
	// NoUpdated leaves updated_date out: the tool writes it at the first
	// edit, not at creation (Backlog.md; a Kano item's updated: stays).
	NoUpdated bool
}

// Field is one FIELD=VALUE.
type Field struct{ Name, Value string }

// Layout is how the documents of a kind are written, learned from them.
type Layout struct {
	group   []*sample // the samples of the folder new ones go in, newest first
	all     []*sample // every sample, newest first
	dir     string
	bucket  int
	width   int
	name    pattern
	ext     string
	heading pattern // the title heading; nil when there is none
	level   int
}

// Learn reads how samples are written. They should be the documents of
// one kind and one id prefix; the newest (highest number) weigh most.
// isDone tells a done state: the folder new documents go in is the one
// that holds the open ones (Backlog.md's tasks/, not completed/).
func Learn(samples []Sample, isDone func(state string) bool) (*Layout, error) {
	if len(samples) == 0 {
		return nil, ErrNoSample
	}
	all := make([]*sample, 0, len(samples))
	for _, s := range samples {
		d := markdown.Parse(s.Path, s.Content, &markdown.Options{})
		x := &sample{Sample: s, doc: d, done: isDone(d.State), lines: strings.Split(strings.ReplaceAll(string(s.Content), "\r\n", "\n"), "\n"), num: numberOf(s.ID)}
		x.title = bareTitle(d, x.num)
		all = append(all, x)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].num > all[j].num })
	l := &Layout{all: all}
	l.group = openGroup(all)
	newest := l.group[0]
	if newest.doc.Format == "toml" {
		return nil, fmt.Errorf("%w (%s)", ErrFormat, newest.Path)
	}
	l.dir, l.bucket, l.width = folderOf(l.group)
	l.ext = path.Ext(newest.Path)
	l.name = vote(l.group, func(s *sample) (pattern, bool) {
		stem := strings.TrimSuffix(path.Base(s.Path), path.Ext(s.Path))
		return learnName(stem, s.ID, strconv.Itoa(s.num), s.title, []titleForm{slugLower, slugUnderscore, slugCase, verbatim})
	})
	if l.name != nil && !l.name.has(partTitle) && !sharedName(l.group, l.name) {
		// KB-USR-0007_seed-6.md, whose name says something other than
		// its title: seed-6 is that file's, not a pattern to copy.
		l.name = nil
	}
	l.name = l.limitTitle(l.name)
	l.heading, l.level = titleHeading(l.group)
	return l, nil
}

// limitTitle sets how long a title in a file name may be: a limit only
// when at least two samples are cut, all near one length, and no whole
// title in a name is longer (a tool's limit, not a slug someone
// shortened by hand).
func (l *Layout) limitTitle(p pattern) pattern {
	if p == nil {
		return nil
	}
	longest, whole, cuts := 0, 0, 0
	shortest := -1
	for _, s := range l.group {
		stem := strings.TrimSuffix(path.Base(s.Path), path.Ext(s.Path))
		q, ok := learnName(stem, s.ID, strconv.Itoa(s.num), s.title, []titleForm{slugLower, slugUnderscore, slugCase, verbatim})
		if !ok || q.key() != p.key() {
			continue
		}
		for _, x := range q {
			switch {
			case x.what != partTitle:
			case x.max > 0:
				cuts++
				longest = max(longest, x.max)
				if shortest < 0 || x.max < shortest {
					shortest = x.max
				}
			default:
				whole = max(whole, len(x.form.render(s.title)))
			}
		}
	}
	out := slices.Clone(p)
	for i := range out {
		if out[i].what == partTitle {
			out[i].max = 0
			if cuts >= 2 && longest-shortest <= 8 && whole <= longest {
				out[i].max = longest
			}
		}
	}
	return out
}

// Path is where a document of id and title goes.
func (l *Layout) Path(id, title string) string {
	num := strconv.Itoa(numberOf(id))
	stem := id
	if l.name != nil {
		stem = l.name.write(id, num, title)
	}
	dir := l.dir
	if l.bucket > 0 {
		dir = path.Join(dir, pad(strconv.Itoa(numberOf(id)/l.bucket*l.bucket), l.width))
	}
	return path.Join(dir, fileSafe(stem)+l.ext)
}

// maxStem bounds a file name's stem in bytes (file systems take 255).
const maxStem = 200

// fileSafe makes a stem one file name: no separator, control character
// or leading dot (a title written verbatim may hold any of them; each
// becomes a dash), no dash, dot or space at its end (a title that
// renders empty leaves "task-4"), at most maxStem bytes.
func fileSafe(stem string) string {
	var b strings.Builder
	for _, r := range stem {
		switch {
		case r == '/' || r == '\\' || r == 0 || unicode.IsControl(r) || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|':
			b.WriteByte('-')
		default:
			b.WriteRune(r)
		}
	}
	s := strings.TrimRight(strings.TrimLeft(b.String(), ". "), "-_ .")
	for len(s) > maxStem {
		s = s[:len(s)-1]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// Compose writes the new document: its frontmatter, its title heading
// and its usual sections.
func (l *Layout) Compose(it Item) ([]byte, error) {
	var b strings.Builder
	newest := l.group[0]
	if newest.doc.Format == "yaml" {
		fm, err := l.frontmatter(it)
		if err != nil {
			return nil, err
		}
		b.WriteString("---\n")
		b.WriteString(fm)
		b.WriteString("---\n")
	}
	b.WriteString(l.body(it))
	return []byte(b.String()), nil
}

// numberedRE is a heading's leading number: "1. " of "1. Use Go".
var numberedRE = lazyre.MustCompile(`^[0-9]+[.:)]?\s+`)

// bareTitle is a document's title; when it comes from a heading that
// starts with the document's number (adr-tools' "# 1. Use Go"), without
// it.
func bareTitle(d *markdown.Document, num int) string {
	t := d.Title
	if m := numberedRE.FindString(t); m != "" && d.Frontmatter.Field("title") == nil && numberOf(strings.TrimSpace(m)) == num {
		return t[len(m):]
	}
	return t
}

// numberOf is the last run of digits of an id: KB-TSK-0012 is 12.
func numberOf(id string) int {
	j := len(id)
	for j > 0 && !isDigit(id[j-1]) {
		j--
	}
	i := j
	for i > 0 && isDigit(id[i-1]) {
		i--
	}
	n, _ := strconv.Atoi(strings.TrimLeft(id[i:j], "0"))
	return n
}

// vote is the pattern most samples agree on, as the newest of them
// writes it (nil when none gives one).
// sharedName reports whether a name pattern with no title in it names
// at least two samples of the group, or the only one: literal text
// beside the id that one file of several has is that file's own.
func sharedName(ss []*sample, p pattern) bool {
	if len(ss) < 2 {
		return true
	}
	n := 0
	for _, s := range ss {
		if strings.TrimSuffix(path.Base(s.Path), path.Ext(s.Path)) == p.write(s.ID, strconv.Itoa(s.num), s.title) {
			n++
		}
	}
	return n >= 2
}

func vote(ss []*sample, learn func(*sample) (pattern, bool)) pattern {
	count := map[string]int{}
	first := map[string]pattern{}
	best := ""
	for _, s := range ss {
		p, ok := learn(s)
		if !ok {
			continue
		}
		k := p.key()
		count[k]++
		if _, seen := first[k]; !seen {
			first[k] = p
		}
		if best == "" || count[k] > count[best] {
			best = k
		}
	}
	if best == "" {
		return nil
	}
	return first[best]
}

// openGroup is the samples of the folder new documents go in: of the
// folders (a numbered bucket's parent standing for its buckets), the
// one with the most documents not done, then the one with the newest.
func openGroup(all []*sample) []*sample {
	groups := map[string][]*sample{}
	var order []string
	for _, s := range all {
		k := groupKey(path.Dir(s.Path))
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], s)
	}
	open := func(k string) int {
		n := 0
		for _, s := range groups[k] {
			if !s.done {
				n++
			}
		}
		return n
	}
	best := order[0]
	for _, k := range order[1:] {
		if open(k) > open(best) {
			best = k
		}
	}
	return groups[best]
}

// groupKey is a folder with a last segment of digits (a bucket) folded.
func groupKey(dir string) string {
	if b := path.Base(dir); b != "" && strings.Trim(b, "0123456789") == "" {
		return path.Dir(dir) + "/#"
	}
	return dir
}

// folderOf is where new documents of the group go: the newest's folder,
// or its parent with the bucket the numbers are filed by (Kano's
// items/task/0100 holds 100 to 199).
func folderOf(group []*sample) (dir string, bucket, width int) {
	dir = path.Dir(group[0].Path)
	b := path.Base(dir)
	if b == "" || strings.Trim(b, "0123456789") != "" || dir == "." {
		return dir, 0, 0
	}
	for _, size := range []int{10, 100, 1000, 10000} {
		ok := true
		for _, s := range group {
			seg := path.Base(path.Dir(s.Path))
			v, err := strconv.Atoi(strings.TrimLeft(seg, "0") + "0")
			if err != nil || v/10 != s.num/size*size {
				ok = false
				break
			}
		}
		if ok {
			return path.Dir(dir), size, len(b)
		}
	}
	return dir, 0, 0
}
