package main

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

var (
	itemSections = []string{"Context", "Goal", "Approach", "Acceptance Criteria", "Risks / Dependencies", "Worklog"}
	itemAnchors  = []string{"context", "goal", "approach", "acceptance-criteria", "risks--dependencies", "worklog"}
	adrSections  = []string{"Context", "Decision", "Consequences", "Alternatives considered"}
	adrAnchors   = []string{"context", "decision", "consequences", "alternatives-considered"}
)

const wrapWidth = 96

func date(day int) string {
	return time.Unix(int64(day)*86400, 0).UTC().Format("2006-01-02")
}

// style is the per-document choice of YAML spelling, as different people and tools write it.
type style struct {
	flow        bool   // flow lists [a, b] or block lists
	dateQuote   string // "", "'" or `"`
	titleQuoted bool
}

func pickStyle(r *rng) style {
	s := style{flow: r.chance(0.6), titleQuoted: r.chance(0.5)}
	switch x := r.intn(10); {
	case x < 5:
	case x < 8:
		s.dateQuote = "'"
	default:
		s.dateQuote = `"`
	}
	return s
}

func (s style) date(day int) string { return s.dateQuote + date(day) + s.dateQuote }

func writeList(b *bytes.Buffer, indent, key string, vals []string, flow bool) {
	b.WriteString(indent)
	b.WriteString(key)
	if len(vals) == 0 || flow {
		b.WriteString(": [")
		b.WriteString(strings.Join(vals, ", "))
		b.WriteString("]\n")
		return
	}
	b.WriteString(":\n")
	for _, v := range vals {
		b.WriteString(indent)
		b.WriteString("  - ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
}

func (p *plan) ids(xs []int) []string {
	out := make([]string, len(xs))
	for k, x := range xs {
		out[k] = p.items[x].id
	}
	return out
}

func (p *plan) adrIDs(xs []int) []string {
	out := make([]string, len(xs))
	for k, x := range xs {
		out[k] = p.adrs[x].id
	}
	return out
}

// renderItem writes item i, frontmatter and body, into b.
func (p *plan) renderItem(b *bytes.Buffer, i int) {
	it := &p.items[i]
	r := newRNG(p.seed, streamItem+uint64(i))
	st := pickStyle(r)
	updated := it.created + r.intn(120)

	b.WriteString("---\nid: ")
	b.WriteString(it.id)
	b.WriteString("\nuid: ")
	b.WriteString(it.uid)
	b.WriteString("\ntype: ")
	b.WriteString(kindInfo[it.kind].typ)
	b.WriteString("\ntitle: ")
	if st.titleQuoted {
		b.WriteString(strconv.Quote(it.title))
	} else {
		b.WriteString(it.title)
	}
	b.WriteString("\nstate: ")
	b.WriteString(it.state)
	b.WriteString("\npriority: P")
	b.WriteString(strconv.Itoa(r.between(0, 4)))
	b.WriteString("\nparent: ")
	if it.parent >= 0 {
		b.WriteString(p.items[it.parent].id)
	} else {
		b.WriteString("null")
	}
	b.WriteString("\nowner: ")
	switch x := r.intn(10); {
	case x < 3:
		b.WriteString("null")
	case x < 4:
		b.WriteString("'None'")
	default:
		b.WriteString(pick(r, owners))
	}
	b.WriteString("\narea: ")
	b.WriteString(pick(r, areas))
	b.WriteString("\niteration: ")
	if r.chance(0.5) {
		b.WriteString("null")
	} else {
		b.WriteString(date(updated)[:4])
		b.WriteString("-S")
		b.WriteString(twoDigits(r.between(1, 26)))
	}
	b.WriteByte('\n')
	tags := []string{pick(r, tagWords)}
	if t := pick(r, tagWords); t != tags[0] && r.chance(0.7) {
		tags = append(tags, t)
	}
	writeList(b, "", "tags", tags, st.flow)
	b.WriteString("created: ")
	b.WriteString(st.date(it.created))
	b.WriteString("\nupdated: ")
	b.WriteString(st.date(updated))
	b.WriteString("\nexternal:\n  azure_id: ")
	if r.chance(0.3) {
		b.WriteString(strconv.Itoa(40000 + i))
	} else {
		b.WriteString("null")
	}
	b.WriteString("\n  jira_key: ")
	if r.chance(0.3) {
		b.WriteString(strings.ToUpper(pick(r, areas)[:3]))
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(100 + i))
	} else {
		b.WriteString("null")
	}
	b.WriteString("\nlinks:\n")
	writeList(b, "  ", "relates", p.ids(it.relates), st.flow)
	writeList(b, "  ", "blocks", p.ids(it.blocks), st.flow)
	writeList(b, "  ", "blocked_by", p.ids(it.blockedBy), st.flow)
	writeList(b, "", "decisions", p.adrIDs(it.decisions), st.flow)
	b.WriteString("---\n\n")

	p.writeItemBody(b, r, i, updated)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func (p *plan) writeItemBody(b *bytes.Buffer, r *rng, i int, updated int) {
	it := &p.items[i]
	// Body size 1-4 KB, most of them near the low end: 1100 + 2900*x^4 for x in [0, 1].
	x := int64(r.intn(1001))
	target := 1100 + int(2900*x*x*x*x/1_000_000_000_000)

	// 3-6 links to other documents, spread over the prose sections.
	var links [4][]string
	for range r.between(3, 6) {
		s := pick(r, []int{0, 0, 1, 2, 2, 2, 3})
		links[s] = append(links[s], p.itemLink(r, i))
	}
	if r.chance(0.1) {
		links[2] = append(links[2], "[the acceptance criteria](#acceptance-criteria)")
	}
	if r.chance(0.08) {
		links[0] = append(links[0], "https://docs.psp.example/"+p.vocab.word(r)+"/"+p.vocab.rareWord(r))
	}

	// The checklist and the worklog are rendered first, so that the prose sections can fill
	// what is left of the target size.
	var ac, worklog bytes.Buffer
	pw := proseWriter{b: &ac, r: r, v: p.vocab}
	pw.checklist(it.state)
	pw.b = &worklog
	n := r.between(1, 4)
	for k := range n {
		day := it.created + (updated-it.created)*k/max(1, n-1)
		worklog.WriteString(date(day))
		worklog.WriteByte(' ')
		worklog.WriteString(twoDigits(r.between(8, 18)))
		worklog.WriteByte(':')
		worklog.WriteString(twoDigits(r.intn(60)))
		worklog.WriteString(" [agent=")
		worklog.WriteString(pick(r, agents))
		worklog.WriteString("] ")
		pw.line(r.between(5, 12))
		worklog.WriteByte('\n')
	}
	pw.b = b

	// Each prose section gets its share of what is still left of the target, so an overshoot
	// in one section is taken from the next.
	start := b.Len()
	// 90 for the six headings, 150 for the usual overshoot of the prose sections.
	fixed := ac.Len() + worklog.Len() + 90 + 150
	shares := [6]int{30, 15, 40, 0, 15, 0}
	left := 100
	prose := func(s int, links []string) {
		budget := (target - (b.Len() - start) - fixed) * shares[s] / left
		left -= shares[s]
		pw.paragraphs(max(budget, 60), links)
	}
	for s, title := range itemSections {
		b.WriteString("# ")
		b.WriteString(title)
		b.WriteString("\n\n")
		switch s {
		case 0, 1:
			prose(s, links[s])
		case 2:
			prose(s, links[2])
			if r.chance(0.3) {
				b.WriteByte('\n')
				pw.bullets(r.between(3, 5), "-")
			}
			if r.chance(0.08) {
				pw.codeBlock()
			}
		case 3:
			b.Write(ac.Bytes())
			fixed -= ac.Len()
		case 4:
			prose(s, links[3])
		case 5:
			b.Write(worklog.Bytes())
			continue
		}
		b.WriteByte('\n')
	}
}

// itemLink returns a Markdown link or wiki-link from item i to a related document.
func (p *plan) itemLink(r *rng, i int) string {
	it := &p.items[i]
	var rel []int
	rel = append(rel, it.relates...)
	rel = append(rel, it.blocks...)
	rel = append(rel, it.blockedBy...)
	var t int
	switch x := r.intn(100); {
	case x < 25 && it.parent >= 0:
		t = it.parent
	case x < 40 && len(it.children) > 0:
		t = it.children[r.intn(len(it.children))]
	case x < 60 && len(rel) > 0:
		t = rel[r.intn(len(rel))]
	case x < 70 && len(it.decisions) > 0:
		return p.adrLink(r, it.dir(), it.decisions[r.intn(len(it.decisions))])
	case x < 73 && len(p.adrs) > 0:
		return p.adrLink(r, it.dir(), r.intn(len(p.adrs)))
	default:
		t = p.nearby(r, i)
	}
	for t == i {
		t = r.intn(len(p.items))
	}
	return p.linkTo(r, it.dir(), t)
}

// linkTo links from a document in folder fromDir to item t, in one of the usual forms.
func (p *plan) linkTo(r *rng, fromDir string, t int) string {
	tt := &p.items[t]
	switch x := r.intn(100); {
	case x < 45:
		target := relPath(fromDir, tt.dir(), tt.stem()+".md")
		if r.chance(0.15) {
			target += "#" + pick(r, itemAnchors)
		}
		return "[" + label(r, tt.title) + "](" + target + ")"
	case x < 75:
		return "[[" + tt.stem() + "]]"
	case x < 88:
		return "[[" + tt.stem() + "|" + label(r, tt.title) + "]]"
	default:
		return "[[" + tt.stem() + "#" + pick(r, itemSections) + "]]"
	}
}

func (p *plan) adrLink(r *rng, fromDir string, d int) string {
	a := &p.adrs[d]
	switch x := r.intn(100); {
	case x < 50:
		target := relPath(fromDir, productRoot+"/decisions", a.stem()+".md")
		if r.chance(0.2) {
			target += "#" + pick(r, adrAnchors)
		}
		return "[" + a.id + "](" + target + ")"
	case x < 80:
		return "[[" + a.stem() + "]]"
	default:
		return "[[" + a.stem() + "|" + label(r, a.title) + "]]"
	}
}

// relPath is the relative path from folder from to file name in folder to. Both folders are
// inside productRoot, at most four levels below it.
func relPath(from, to, name string) string {
	if from == to {
		return name
	}
	f := strings.Split(from, "/")
	t := strings.Split(to, "/")
	k := 0
	for k < len(f) && k < len(t) && f[k] == t[k] {
		k++
	}
	var b strings.Builder
	for range len(f) - k {
		b.WriteString("../")
	}
	for _, s := range t[k:] {
		b.WriteString(s)
		b.WriteByte('/')
	}
	b.WriteString(name)
	return b.String()
}

// label is link text: the first few words of a title, starting lower case.
func label(r *rng, title string) string {
	w := strings.Fields(title)
	w = w[:min(len(w), r.between(2, 5))]
	s := strings.Join(w, " ")
	return strings.ToLower(s[:1]) + s[1:]
}

func (p *plan) renderADR(b *bytes.Buffer, j int) {
	a := &p.adrs[j]
	r := newRNG(p.seed, streamADR+uint64(j))
	st := pickStyle(r)
	b.WriteString("---\nid: ")
	b.WriteString(a.id)
	b.WriteString("\ntitle: ")
	if st.titleQuoted {
		b.WriteString(strconv.Quote(a.title))
	} else {
		b.WriteString(a.title)
	}
	b.WriteString("\nstatus: ")
	b.WriteString(a.status)
	b.WriteString("\ndate: ")
	b.WriteString(st.date(a.date))
	b.WriteByte('\n')
	writeList(b, "", "related_items", p.ids(a.related), st.flow)
	if a.supersedes >= 0 {
		b.WriteString("supersedes: ")
		b.WriteString(p.adrs[a.supersedes].id)
		b.WriteByte('\n')
	}
	b.WriteString("---\n\n")

	dir := productRoot + "/decisions"
	var links []string
	for _, t := range a.related {
		links = append(links, p.linkTo(r, dir, t))
	}
	x := int64(r.intn(1001))
	budget := 700 + int(2000*x*x/1_000_000)
	pw := proseWriter{b: b, r: r, v: p.vocab}
	for s, title := range adrSections {
		b.WriteString("# ")
		b.WriteString(title)
		b.WriteString("\n\n")
		switch s {
		case 0:
			pw.paragraphs(budget*45/100, links)
		case 1:
			pw.paragraphs(budget*35/100, nil)
			if a.supersedes >= 0 {
				b.WriteString("\nThis supersedes [[" + p.adrs[a.supersedes].stem() + "]].\n")
			}
			if a.supersededBy >= 0 {
				by := &p.adrs[a.supersededBy]
				b.WriteString("\nSuperseded by [" + by.id + "](" + by.stem() + ".md).\n")
			}
		case 2:
			pw.bullets(r.between(2, 4), "-")
		case 3:
			pw.bullets(r.between(2, 3), "- **Alternative.**")
		}
		b.WriteByte('\n')
	}
	// Drop the blank line after the last section so files end with exactly one newline.
	b.Truncate(b.Len() - 1)
}

// proseWriter writes sentences of Zipf-distributed words, wrapped like a person's editor.
type proseWriter struct {
	b      *bytes.Buffer
	r      *rng
	v      *vocabulary
	col    int
	indent string // written after each wrap, for list items
}

func (w *proseWriter) token(s string) {
	if w.col > 0 {
		if w.col+1+len(s) > wrapWidth {
			w.b.WriteByte('\n')
			w.b.WriteString(w.indent)
			w.col = len(w.indent)
		} else {
			w.b.WriteByte(' ')
			w.col++
		}
	}
	w.b.WriteString(s)
	w.col += len(s)
}

func (w *proseWriter) endLine() {
	if w.col > 0 {
		w.b.WriteByte('\n')
		w.col = 0
	}
}

var linkLeads = []string{"see", "per", "after", "with", "like", "unlike", "from"}

// sentence writes a sentence of lo to hi words; if link is not empty it is placed inside it.
func (w *proseWriter) sentence(link string, lo, hi int) {
	r := w.r
	n := r.between(lo, hi)
	at := -1
	if link != "" {
		at = r.intn(n)
	}
	first := true
	emit := func(s string) {
		if first {
			s = strings.ToUpper(s[:1]) + s[1:]
			first = false
		}
		w.token(s)
	}
	for k := range n {
		if k == at {
			emit(pick(r, linkLeads))
			w.token(link)
		}
		s := w.v.word(r)
		if r.chance(0.02) {
			s = "`" + s + "_" + w.v.word(r) + "`"
		}
		switch {
		case k == n-1:
			s += "."
		case r.chance(0.07):
			s += ","
		}
		emit(s)
	}
}

// paragraphs writes paragraphs of 2-5 sentences until about budget bytes are written, and
// places every link in a sentence.
func (w *proseWriter) paragraphs(budget int, links []string) {
	start := w.b.Len()
	reserved := 0 // bytes of links not yet placed
	for _, l := range links {
		reserved += len(l) + 5
	}
	// A sentence is about 90 bytes: stop when the next one would overshoot more than it
	// undershoots. Links still to place count as written.
	full := func() bool { return w.b.Len()-start+reserved+45 >= budget }
	for {
		for range w.r.between(2, 5) {
			link := ""
			if len(links) > 0 && (w.r.chance(0.4) || full()) {
				link, links = links[0], links[1:]
				reserved -= len(link) + 5
			}
			if full() {
				w.sentence(link, 3, 6)
			} else {
				w.sentence(link, 6, 18)
			}
			if full() && len(links) == 0 {
				break
			}
		}
		if full() && len(links) == 0 {
			break
		}
		w.endLine()
		w.b.WriteByte('\n')
	}
	w.endLine()
}

// line writes one short sentence without wrapping, for worklog entries.
func (w *proseWriter) line(n int) {
	for k := range n {
		if k > 0 {
			w.b.WriteByte(' ')
		}
		w.b.WriteString(w.v.word(w.r))
	}
	w.b.WriteByte('.')
}

// bullets writes a list of n one-sentence items, each starting with lead.
func (w *proseWriter) bullets(n int, lead string) {
	w.indent = "  "
	for range n {
		w.b.WriteString(lead)
		w.col = len(lead)
		w.sentence("", 6, 18)
		w.endLine()
	}
	w.indent = ""
}

func (w *proseWriter) checklist(state string) {
	done := 0.05
	switch state {
	case "Done":
		done = 1
	case "InProgress", "Review":
		done = 0.5
	}
	for range w.r.between(3, 6) {
		if w.r.chance(done) {
			w.b.WriteString("- [x] ")
		} else {
			w.b.WriteString("- [ ] ")
		}
		w.line(w.r.between(4, 10))
		w.b.WriteByte('\n')
	}
}

func (w *proseWriter) codeBlock() {
	r := w.r
	w.b.WriteString("\n```")
	w.b.WriteString(pick(r, []string{"text", "go", "sql", "yaml", "bash"}))
	w.b.WriteByte('\n')
	for range r.between(2, 5) {
		w.b.WriteString(w.v.word(r))
		w.b.WriteByte('_')
		w.b.WriteString(w.v.rareWord(r))
		w.b.WriteString(" = ")
		w.b.WriteString(w.v.word(r))
		w.b.WriteByte('(')
		w.b.WriteString(strconv.Itoa(r.intn(1000)))
		w.b.WriteString(")\n")
	}
	w.b.WriteString("```\n")
}
