package main

import (
	"fmt"
	"strings"
)

// kind is an item type of the Kano layout.
type kind int

const (
	epic kind = iota
	feature
	story
	task
	bug
)

var kindInfo = [...]struct {
	typ, dir, prefix string
}{
	epic:    {"Epic", "epic", "KB-EPI"},
	feature: {"Feature", "feature", "KB-FTR"},
	story:   {"UserStory", "userstory", "KB-USR"},
	task:    {"Task", "task", "KB-TSK"},
	bug:     {"Bug", "bug", "KB-BUG"},
}

const productRoot = "_kano/backlog/products/checkout"

// item is everything about one backlog item that another document may need to know in order
// to reference it. Bodies are not planned; they are rendered from the item's own stream.
type item struct {
	kind      kind
	num       int
	id, slug  string
	title     string
	uid       string
	created   int // days since 1970-01-01
	state     string
	parent    int // index into plan.items, -1 for none
	children  []int
	relates   []int
	blocks    []int
	blockedBy []int
	decisions []int // indexes into plan.adrs
}

type adr struct {
	num          int
	id, slug     string
	title        string
	date         int
	status       string
	related      []int // item indexes
	supersedes   int   // adr index, -1 for none
	supersededBy int
}

type plan struct {
	seed  uint64
	items []item
	adrs  []adr
	vocab *vocabulary
}

// Random streams, all derived from the seed: one for the plan, one per item, one per ADR,
// one per touch round.
const (
	streamPlan  = 1 << 40
	streamItem  = 2 << 40
	streamADR   = 3 << 40
	streamTouch = 4 << 40
)

const (
	dayCorpus0   = 19358 // 2023-01-01, in days since 1970-01-01
	corpusDays   = 912   // items are created over about two and a half years
	adrDayOffset = 30
)

// kindCounts splits n items into the layout's proportions: epics 2 %, features 8 %,
// stories 25 %, bugs 15 %, tasks the rest (50 %).
func kindCounts(n int) ([5]int, error) {
	if n < 5 {
		return [5]int{}, fmt.Errorf("-n must be at least 5 (one item of each type), got %d", n)
	}
	var c [5]int
	c[epic] = max(1, n*2/100)
	c[feature] = max(1, n*8/100)
	c[story] = max(1, n*25/100)
	c[bug] = max(1, n*15/100)
	c[task] = n - c[epic] - c[feature] - c[story] - c[bug]
	return c, nil
}

func newPlan(n, nADR int, seed uint64) (*plan, error) {
	counts, err := kindCounts(n)
	if err != nil {
		return nil, err
	}
	p := &plan{seed: seed, vocab: newVocabulary(), items: make([]item, 0, n)}
	r := newRNG(seed, streamPlan)
	first := [5]int{}
	for k := epic; k <= bug; k++ {
		first[k] = len(p.items)
		for num := 1; num <= counts[k]; num++ {
			p.items = append(p.items, p.newItem(r, k, num, counts[k]))
		}
	}
	// Parent chains: feature → epic, story → feature, task and bug → story.
	parentKind := map[kind]kind{feature: epic, story: feature, task: story, bug: story}
	for i := range p.items {
		it := &p.items[i]
		it.parent = -1
		pk, ok := parentKind[it.kind]
		if !ok {
			continue
		}
		it.parent = first[pk] + r.intn(counts[pk])
		p.items[it.parent].children = append(p.items[it.parent].children, i)
	}
	p.planRelations(r, first)
	p.planADRs(r, nADR)
	return p, nil
}

func (p *plan) newItem(r *rng, k kind, num, count int) item {
	it := item{kind: k, num: num}
	it.id = fmt.Sprintf("%s-%04d", kindInfo[k].prefix, num)
	it.title = p.title(r, k)
	it.slug = slugify(it.title)
	// Creation dates grow with the number, with some jitter, like a real backlog.
	it.created = dayCorpus0 + (num-1)*corpusDays/count + r.intn(20)
	it.uid = uuidV7(r, it.created)
	it.state = pickState(r, k)
	return it
}

func (p *plan) title(r *rng, k kind) string {
	v := p.vocab
	noun := func() string { return pick(r, domainWords) }
	switch k {
	case epic:
		return fmt.Sprintf("%s %s %s and %s", pick(r, epicVerbs), noun(), noun(), v.rareWord(r))
	case feature:
		return fmt.Sprintf("%s %s %s for %s", pick(r, adjectives), noun(), noun(), v.rareWord(r))
	case story:
		role := strings.ReplaceAll(pick(r, roles), "-", " ")
		article := "a"
		if strings.ContainsRune("aeiou", rune(role[0])) {
			article = "an"
		}
		return fmt.Sprintf("As %s %s I can %s the %s %s %s", article, role, pick(r, storyVerbs), v.rareWord(r), noun(), noun())
	case task:
		return fmt.Sprintf("%s %s %s in the %s %s", pick(r, titleVerbs), noun(), noun(), v.rareWord(r), noun())
	default:
		n := noun()
		return fmt.Sprintf("%s %s %s %s", strings.ToUpper(n[:1])+n[1:], v.rareWord(r), pick(r, bugPhrases), pick(r, whenPhrases))
	}
}

func slugify(title string) string {
	var b strings.Builder
	words := 0
	for _, w := range strings.Fields(strings.ToLower(title)) {
		if words == 6 {
			break
		}
		if words > 0 {
			b.WriteByte('-')
		}
		for _, c := range w {
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' {
				b.WriteRune(c)
			}
		}
		words++
	}
	return b.String()
}

// uuidV7 makes a UUIDv7-shaped uid: the creation day plus a random time of day in the
// 48-bit millisecond field, then random bits with the version and variant set.
func uuidV7(r *rng, day int) string {
	ms := uint64(day)*86_400_000 + uint64(r.intn(86_400_000))
	a := r.next()
	b := r.next()
	return fmt.Sprintf("%08x-%04x-7%03x-%04x-%012x",
		ms>>16, ms&0xffff, a&0xfff, 0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}

func pickState(r *rng, k kind) string {
	x := r.intn(100)
	switch {
	case x < 30:
		return "Done"
	case x < 45:
		return "InProgress"
	case x < 55:
		return "Ready"
	case x < 70:
		return "Planned"
	case x < 83:
		return "Proposed"
	case x < 90:
		return "Review"
	case x < 95 && k >= task:
		return "Blocked"
	default:
		return "Dropped"
	}
}

// planRelations adds relates links and blocks/blocked_by pairs. Pairs are always symmetric,
// and a blocker always has a lower index than what it blocks, so there are no cycles.
func (p *plan) planRelations(r *rng, first [5]int) {
	n := len(p.items)
	for i := range p.items {
		it := &p.items[i]
		if r.chance(0.4) {
			for range r.between(1, 2) {
				t := p.nearby(r, i)
				if t != i && !contains(it.relates, t) {
					it.relates = append(it.relates, t)
				}
			}
		}
		if it.kind < task || !r.chance(0.15) {
			continue
		}
		// Prefer a later sibling under the same story, else any later task or bug.
		var t = -1
		if sib := p.items[it.parent].children; len(sib) > 1 {
			c := sib[r.intn(len(sib))]
			if c > i {
				t = c
			}
		}
		if t < 0 {
			lo := max(i+1, first[task])
			if lo >= n {
				continue
			}
			t = lo + r.intn(n-lo)
		}
		if contains(it.blocks, t) {
			continue
		}
		it.blocks = append(it.blocks, t)
		p.items[t].blockedBy = append(p.items[t].blockedBy, i)
		if p.items[t].state != "Done" && p.items[t].state != "Dropped" && r.chance(0.5) {
			p.items[t].state = "Blocked"
		}
	}
}

// nearby picks a related item: often a sibling or the parent, sometimes anything.
func (p *plan) nearby(r *rng, i int) int {
	it := &p.items[i]
	if it.parent >= 0 && r.chance(0.6) {
		sib := p.items[it.parent].children
		if r.chance(0.2) {
			return it.parent
		}
		return sib[r.intn(len(sib))]
	}
	if len(it.children) > 0 && r.chance(0.3) {
		return it.children[r.intn(len(it.children))]
	}
	return r.intn(len(p.items))
}

func (p *plan) planADRs(r *rng, nADR int) {
	n := len(p.items)
	p.adrs = make([]adr, nADR)
	for j := range p.adrs {
		a := &p.adrs[j]
		a.num = j + 1
		a.id = fmt.Sprintf("ADR-%04d", a.num)
		a.title = fmt.Sprintf("%s %s %s for %s %s", pick(r, []string{"Use", "Adopt", "Keep", "Replace", "Introduce", "Drop"}),
			pick(r, domainWords), pick(r, domainWords), pick(r, domainWords), p.vocab.rareWord(r))
		a.slug = slugify(a.title)
		a.date = dayCorpus0 + adrDayOffset + j*corpusDays/max(1, nADR) + r.intn(10)
		a.status = "Accepted"
		if r.chance(0.25) {
			a.status = "Proposed"
		}
		a.supersedes, a.supersededBy = -1, -1
		for range r.between(1, 3) {
			t := r.intn(n)
			if r.chance(0.6) { // decisions are mostly about epics and features
				t = r.intn(min(n, max(1, n/10)))
			}
			if !contains(a.related, t) {
				a.related = append(a.related, t)
			}
		}
	}
	for j := 1; j < nADR; j++ {
		if !r.chance(0.08) {
			continue
		}
		k := r.intn(j)
		if p.adrs[k].supersededBy >= 0 {
			continue
		}
		p.adrs[j].supersedes, p.adrs[k].supersededBy = k, j
		p.adrs[k].status = "Superseded"
	}
	if nADR == 0 {
		return
	}
	for i := range p.items {
		if r.chance(0.12) {
			for range r.between(1, 2) {
				d := r.intn(nADR)
				if !contains(p.items[i].decisions, d) {
					p.items[i].decisions = append(p.items[i].decisions, d)
				}
			}
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Paths, all slash-separated and relative to the corpus root.

func (it *item) dir() string {
	return fmt.Sprintf("%s/items/%s/%04d", productRoot, kindInfo[it.kind].dir, it.num/100*100)
}

func (it *item) stem() string { return it.id + "_" + it.slug }

func (it *item) path() string { return it.dir() + "/" + it.stem() + ".md" }

func (a *adr) stem() string { return a.id + "_" + a.slug }

func (a *adr) path() string { return productRoot + "/decisions/" + a.stem() + ".md" }
