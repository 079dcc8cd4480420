package learn

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
)

// Where a repository keeps the work's state (issue 43): emberjs/rfcs
// writes it in stage: (accepted, ready-for-release, released,
// recommended), and no document has a state: or status:, so canon ready
// found no open work. canon init learns such a field into states.field,
// with its values' order: those before the first value that says the work
// shipped are open, the rest done.

// stateFieldCandidates are the fields other than state and status a
// repository keeps its work's state in.
var stateFieldCandidates = []string{"stage", "phase"}

// noteStateFields counts, for one document, the values of the candidate
// fields and whether it writes state: or status:.
func (f *facts) noteStateFields(m map[string]json.RawMessage) {
	if _, ok := text(m["state"]); ok {
		f.stateDocs++
	} else if v, ok := text(m["status"]); ok {
		f.stateDocs++
		if v = strings.TrimSpace(v); v != "" {
			if f.stateFields == nil {
				f.stateFields = map[string]map[string]int{}
			}
			count(f.stateFields, "status", v) // a KEP's: provisional, implementable, implemented (statusLadder)
		}
	}
	for _, k := range stateFieldCandidates {
		if v, ok := text(m[k]); ok && strings.TrimSpace(v) != "" {
			if f.stateFields == nil {
				f.stateFields = map[string]map[string]int{}
			}
			count(f.stateFields, k, strings.TrimSpace(v))
		}
	}
}

// stageLadder orders the values of a stage field as work moves through
// them: proposals first, then work under way, then the values that say it
// shipped (shippedFrom on).
var stageLadder = []string{"idea", "pre-rfc", "draft", "proposed", "provisional", "exploring", "discussion", "review",
	"accepted", "approved", "implementable", "planned", "in progress", "in-progress", "implementing", "ready-for-release",
	"ready for release", "implemented", "released", "shipped", "final", "recommended", "stable", "living", "done"}

// shippedFrom is the first value of stageLadder that says the work is
// over.
const shippedFrom = "implemented"

// stageEnds are values that end the work without shipping it.
var stageEnds = map[string]bool{"discontinued": true, "closed": true, "rejected": true, "withdrawn": true, "deprecated": true,
	"superseded": true, "obsolete": true, "stagnant": true, "abandoned": true, "declined": true, "postponed": true,
	"deferred": true, "replaced": true, "moved": true}

// ladderSlots is vals with those on the ladder in its order (a KEP's
// provisional before implementable), in the places they held; the others
// stay where they are.
func ladderSlots(vals []string) []string {
	var at []int
	var on []string
	for i, v := range vals {
		if ladderRank(v) >= 0 {
			at, on = append(at, i), append(on, v)
		}
	}
	sort.SliceStable(on, func(i, j int) bool { return ladderRank(on[i]) < ladderRank(on[j]) })
	out := slices.Clone(vals)
	for k, i := range at {
		out[i] = on[k]
	}
	return out
}

// shipped reports a value of the ladder that says the work is over
// (implemented, released, stable), or one that ends it.
func shipped(v string) bool {
	return ladderRank(v) >= ladderRank(shippedFrom) || stageEnds[strings.ToLower(v)]
}

func ladderRank(v string) int {
	for i, s := range stageLadder {
		if strings.EqualFold(s, v) {
			return i
		}
	}
	return -1
}

// decideStateField learns the field when more documents write it than
// write state: or status:, it is a convention (MinCount documents), and
// most of its values are on the ladder or end work: then its values are
// the states, in the ladder's order.
func decideStateField(f *facts, r *Result) {
	best, bestN := "", 0
	for _, k := range stateFieldCandidates {
		n := 0
		for _, c := range f.stateFields[k] {
			n += c
		}
		if n > bestN {
			best, bestN = k, n
		}
	}
	if best == "" || bestN < MinCount || bestN <= f.stateDocs {
		statusLadder(f, r)
		return
	}
	learnLadder(f, r, best, best, bestN)
}

// statusLadder learns the order of status: values that are a lifecycle's
// the default states do not know (a KEP's provisional, implementable,
// implemented, withdrawn), where no state: is written: the field is read
// already, only its values' order is learned.
func statusLadder(f *facts, r *Result) {
	vals := f.stateFields["status"]
	n, def := 0, config.DefaultStates()
	knownHere := 0
	for v, c := range vals {
		n += c
		if inFold(def.Open, v) || def.IsDone(v) {
			knownHere += c
		}
	}
	if n < MinCount || knownHere*2 >= n || r.Learned.States != nil {
		return // the default states read them, too few, or the states are learned already
	}
	learnLadder(f, r, "", "status", n)
}

// learnLadder learns field's values (as name writes them: "" for status,
// read anyway) as the states in the ladder's order, when most of its n
// values are on the ladder or end work.
func learnLadder(f *facts, r *Result, field, name string, n int) {
	bestN := n
	vals := f.stateFields[name]
	known := 0
	for v, n := range vals {
		if ladderRank(v) >= 0 || stageEnds[strings.ToLower(v)] {
			known += n
		}
	}
	if known*2 < bestN {
		return // not a lifecycle: the field says something else
	}
	var used []string
	for v, n := range vals {
		if convention(n, bestN) || ladderRank(v) >= 0 || stageEnds[strings.ToLower(v)] {
			used = append(used, v)
		}
	}
	sort.SliceStable(used, func(i, j int) bool {
		ri, rj := ladderRank(used[i]), ladderRank(used[j])
		if ri < 0 {
			ri = len(stageLadder)
		}
		if rj < 0 {
			rj = len(stageLadder)
		}
		if ri != rj {
			return ri < rj
		}
		return used[i] < used[j]
	})
	s := &config.States{Field: field}
	ship := ladderRank(shippedFrom)
	for _, v := range used {
		if rk := ladderRank(v); rk >= ship || stageEnds[strings.ToLower(v)] {
			s.Done = append(s.Done, v)
		} else if rk >= 0 {
			s.Open = append(s.Open, v)
		}
	}
	if len(s.Open) == 0 || len(s.Done) == 0 {
		return
	}
	r.Learned.States = s
	var counts []string
	for _, v := range sortedKeys(vals) {
		counts = append(counts, fmt.Sprintf("%s %d", v, vals[v]))
	}
	if field == "" {
		r.Evidence["states"] = fmt.Sprintf("%s holds the work's state in %d documents in values the default states do not know (%s): open until it ships (%s), done after (%s)",
			name, bestN, strings.Join(counts, ", "), strings.Join(s.Open, ", "), strings.Join(s.Done, ", "))
		return
	}
	r.Evidence["states"] = fmt.Sprintf("%s holds the work's state in %d documents, state: or status: in %d (%s): open until it ships (%s), done after (%s)",
		field, bestN, f.stateDocs, strings.Join(counts, ", "), strings.Join(s.Open, ", "), strings.Join(s.Done, ", "))
}
