package learn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/safepath"
)

// Sidecars (issue 43): Kubernetes keeps a KEP's fields (title, kep-number,
// status, stage, owning-sig, authors) in a kep.yaml beside its README.md,
// which has no frontmatter, so canon saw no state and ready found no open
// KEP. canon init learns such a file when two folders or more have one
// beside their README.md and it reads as a mapping of fields; the
// README's document then takes its fields (config.Sidecars), its states
// are learned with the others', and an id is written from a number field
// (kep-number 2400: KEP-2400).

// sidecarCandidates are the files beside a README.md that hold its
// document's fields.
var sidecarCandidates = []string{"kep.yaml", "metadata.yaml"}

// sidecarFacts are what learning saw of one candidate.
type sidecarFacts struct {
	folders []string       // the README folders it is beside
	fields  map[string]int // field → sidecars that set it
	numbers map[string]int // a *-number field → sidecars where it is a number
}

// numberField is a field that numbers a document (kep-number): its first
// part names the id prefix.
var numberField = regexp.MustCompile(`^([a-z]{2,8})[-_]number$`)

var digits = regexp.MustCompile(`^[0-9]{1,9}$`)

// noteSidecar reads the candidate sidecars beside a README.md, within
// config.MaxSidecarBytes and the frontmatter's YAML bounds, and lays the
// first one's fields under the document's frontmatter m, as the index
// does once it is learned (and has, when the configuration names it:
// init learns again after the rebuild it causes).
func (f *facts) noteSidecar(rel string, m map[string]json.RawMessage) map[string]json.RawMessage {
	if f.root == "" || !strings.EqualFold(path.Base(rel), config.SidecarBeside) {
		return m
	}
	for _, name := range sidecarCandidates {
		data, err := safepath.ReadFile(filepath.Join(f.root, filepath.FromSlash(path.Join(path.Dir(rel), name))), config.MaxSidecarBytes, f.root)
		if err != nil {
			continue
		}
		v, err := markdown.ParseSidecar(data)
		if err != nil {
			continue
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(v.AppendJSON(nil), &fields) != nil {
			continue
		}
		if f.sidecars == nil {
			f.sidecars = map[string]*sidecarFacts{}
		}
		sf := f.sidecars[name]
		if sf == nil {
			sf = &sidecarFacts{fields: map[string]int{}, numbers: map[string]int{}}
			f.sidecars[name] = sf
		}
		sf.folders = append(sf.folders, path.Dir(rel))
		if m == nil {
			m = map[string]json.RawMessage{}
		}
		for k, raw := range fields {
			sf.fields[k]++
			if numberField.MatchString(k) && digits.Match(bytes.Trim(raw, `"`)) { // kep-number: 2400, or "2400"
				sf.numbers[k]++
			}
			if _, set := m[k]; !set {
				m[k] = raw
			}
		}
		return m
	}
	return m
}

// decideSidecars learns each candidate beside the README.md of MinCount
// folders or more, with the number field three in four of them or more
// write as a number as the id.
func decideSidecars(f *facts, r *Result) {
	for _, name := range sidecarCandidates {
		sf := f.sidecars[name]
		if sf == nil || len(sf.folders) < MinCount {
			continue
		}
		sc := config.Sidecar{File: name}
		for _, k := range sortedKeys(sf.numbers) {
			if sf.numbers[k]*4 >= len(sf.folders)*3 { // the template's NNNN aside
				sc.ID, sc.Prefix = k, strings.ToUpper(numberField.FindStringSubmatch(k)[1])+"-"
				break
			}
		}
		r.Learned.Sidecars = append(r.Learned.Sidecars, sc)
		keys := sortedKeys(sf.fields)
		sort.SliceStable(keys, func(i, j int) bool { // what names a document and its state first, then the most set
			if a, b := shownFirst(keys[i], sc.ID), shownFirst(keys[j], sc.ID); a != b {
				return a
			}
			return sf.fields[keys[i]] > sf.fields[keys[j]]
		})
		var shown []string
		for i, k := range keys {
			if i == 8 {
				shown = append(shown, "...")
				break
			}
			shown = append(shown, fmt.Sprintf("%s %d", k, sf.fields[k]))
		}
		folders := sf.folders
		if len(folders) > 2 {
			folders = append(folders[:2:2], "...")
		}
		why := fmt.Sprintf("%s beside the README.md of %s (%s) holds their fields (%s): the README's document takes those its frontmatter does not set",
			name, plural(len(sf.folders), "folder"), strings.Join(folders, ", "), strings.Join(shown, ", "))
		if sc.ID != "" {
			why += fmt.Sprintf(", and its id is %s<%s>", sc.Prefix, sc.ID)
		}
		r.Evidence["sidecars"] = appendWhy(r.Evidence["sidecars"], why)
	}
}

func shownFirst(k, id string) bool {
	switch k {
	case "title", "status", "state", "stage", id:
		return true
	}
	return false
}

func appendWhy(was, why string) string {
	if was == "" {
		return why
	}
	return was + "; " + why
}
