package check

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/human"
)

// Summary counts findings.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Files    int `json:"files"`   // files with at least one finding
	Checked  int `json:"checked"` // files validated
}

// Summarize counts findings by severity and file.
func Summarize(fs []Finding, checked int) Summary {
	s := Summary{Checked: checked}
	files := map[string]bool{}
	for _, f := range fs {
		files[f.Path] = true
		if f.Severity == "error" {
			s.Errors++
		} else {
			s.Warnings++
		}
	}
	s.Files = len(files)
	return s
}

// WriteText writes `path:line:col: severity rule: message` lines and a
// summary line.
func WriteText(w io.Writer, fs []Finding, checked int) { writeText(w, fs, checked, 0) }

// writeText is WriteText listing at most limit findings (0: all), with a
// line that counts the rest.
func writeText(w io.Writer, fs []Finding, checked, limit int) {
	shown := fs
	if limit > 0 && len(fs) > limit {
		shown = fs[:limit]
	}
	for _, f := range shown {
		fmt.Fprintln(w, f.String())
	}
	if n := len(fs) - len(shown); n > 0 {
		fmt.Fprintf(w, "(%d more findings past the limit)\n", n)
	}
	s := Summarize(fs, checked)
	if len(fs) == 0 {
		fmt.Fprintf(w, "no problems in %s\n", human.Plural(checked, "file"))
		return
	}
	fmt.Fprintf(w, "%s, %s in %s (%s checked)\n", human.Plural(s.Errors, "error"), human.Plural(s.Warnings, "warning"),
		human.Plural(s.Files, "file"), human.Plural(checked, "file"))
}

// WriteJSON writes {"findings": [...], "summary": {...}}.
func WriteJSON(w io.Writer, fs []Finding, checked int) error {
	if fs == nil {
		fs = []Finding{}
	}
	return writeIndented(w, map[string]any{"findings": fs, "summary": Summarize(fs, checked)})
}

// writeIndented writes v as canon's JSON output is: indented by two
// spaces, <, > and & as they are.
func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// WriteGitHub writes workflow commands that GitHub Actions shows as
// annotations on the lines.
func WriteGitHub(w io.Writer, fs []Finding) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	escProp := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	for _, f := range fs {
		kind := "error"
		if f.Severity != "error" {
			kind = "warning"
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", kind, escProp.Replace(f.Path), f.Line, f.Col,
			escProp.Replace("canon "+f.Rule), esc.Replace(f.Message))
	}
}

// WriteGitHubSummary writes the line that ends --format github: counts,
// with their plurals.
func WriteGitHubSummary(w io.Writer, fs []Finding, checked int) {
	s := Summarize(fs, checked)
	fmt.Fprintf(w, "canon check: %s, %s in %s\n", human.Plural(s.Errors, "error"), human.Plural(s.Warnings, "warning"), human.Plural(s.Files, "file"))
}

// SARIFURI makes a repository path a relative URI reference (RFC 3986),
// as SARIF's artifactLocation.uri must be: every byte outside the
// unreserved characters is percent-encoded, "/" separates segments. A
// space, a comma, "%", ":" (which would read as a scheme) and non-ASCII
// letters (as their UTF-8 bytes) are all encoded.
func SARIFURI(path string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// RuleHelp describes each rule in a sentence (SARIF, --help).
var RuleHelp = map[string]string{
	"yaml-syntax":       "The frontmatter must parse as YAML (or TOML).",
	"frontmatter":       "A frontmatter must be closed and be a mapping of fields.",
	"edge-value":        "A reference field holds a reference or a list of them.",
	"identity-value":    "id and uid hold a single value.",
	"file-skipped":      "A Markdown file canon cannot read (binary, not UTF-8, too large, a link).",
	"document-budget":   "A document stays within canon's budget of headings and links.",
	"required-field":    "Documents of a kind carry the fields its schema requires.",
	"enum-value":        "state, status and priority take the values the kind's schema allows.",
	"date-format":       "Date fields hold YYYY-MM-DD or an RFC 3339 date-time, and a real date.",
	"id-format":         "An id matches its kind's pattern.",
	"duplicate-id":      "No two documents share an id.",
	"duplicate-uid":     "No two documents share a uid.",
	"id-collision":      "An id a branch minted is not minted by the target branch too (check --new-from).",
	"dangling-ref":      "A frontmatter reference names an existing document.",
	"ambiguous-ref":     "A frontmatter reference names exactly one document.",
	"broken-link":       "A Markdown link's target exists in the tree git records, with git's case.",
	"broken-anchor":     "A link's #anchor names a heading of its target, slugged as GitHub does.",
	"wiki-link":         "A wiki-link matches exactly one document.",
	"parent-cycle":      "Following parent never comes back to where it started.",
	"parent-kind":       "A parent has a kind the child's kind allows (Epic > Feature > Story > Task/Bug).",
	"asymmetric-block":  "blocks and blocked_by are declared on both ends.",
	"self-reference":    "A document does not reference itself in its frontmatter.",
	"group-cycle":       "Groups' depends_on edges never loop (scoped context walks them upstream).",
	"unused-definition": "A link reference definition is used by a link of its document (off by default).",
	"submodule-link":    "Links into a git submodule are not checked (canon cannot look inside one).",
	"anchor-case":       "A link's #anchor has the case of its heading's slug (GitHub ignores case; other renderers do not).",
	"enum-case":         "A decision record's status takes the case its schema writes (canon reads it in any case; MADR writes it in lower case).",
}

// WriteSARIF writes a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, fs []Finding, version string, severities map[string]string) error {
	type region struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
	}
	type artifact struct {
		URI string `json:"uri"` // relative to the repository root
	}
	type physical struct {
		ArtifactLocation artifact `json:"artifactLocation"`
		Region           region   `json:"region"`
	}
	type location struct {
		PhysicalLocation physical `json:"physicalLocation"`
	}
	type message struct {
		Text string `json:"text"`
	}
	type result struct {
		RuleID    string     `json:"ruleId"`
		RuleIndex int        `json:"ruleIndex"`
		Level     string     `json:"level"`
		Message   message    `json:"message"`
		Locations []location `json:"locations"`
	}
	type config struct {
		Level string `json:"level"`
	}
	type rule struct {
		ID                   string  `json:"id"`
		ShortDescription     message `json:"shortDescription"`
		DefaultConfiguration config  `json:"defaultConfiguration"`
	}
	ids := make([]string, 0, len(RuleHelp))
	for id := range RuleHelp {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	index := map[string]int{}
	rules := make([]rule, 0, len(ids))
	for i, id := range ids {
		index[id] = i
		level := "error"
		switch severities[id] {
		case "warning":
			level = "warning"
		case "off":
			level = "none"
		}
		rules = append(rules, rule{ID: id, ShortDescription: message{RuleHelp[id]}, DefaultConfiguration: config{level}})
	}
	results := make([]result, 0, len(fs))
	for _, f := range fs {
		level := "error"
		if f.Severity != "error" {
			level = "warning"
		}
		results = append(results, result{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: level, Message: message{f.Message},
			Locations: []location{{PhysicalLocation: physical{
				ArtifactLocation: artifact{URI: SARIFURI(f.Path)},
				Region:           region{StartLine: f.Line, StartColumn: f.Col},
			}}}})
	}
	type driver struct {
		Name           string `json:"name"`
		Version        string `json:"version"`
		InformationURI string `json:"informationUri"`
		Rules          []rule `json:"rules"`
	}
	type tool struct {
		Driver driver `json:"driver"`
	}
	type run struct {
		Tool    tool     `json:"tool"`
		Results []result `json:"results"`
	}
	log := struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []run  `json:"runs"`
	}{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []run{{
			Tool:    tool{Driver: driver{Name: "canon", Version: version, InformationURI: "https://github.com/canon-md/canon", Rules: rules}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
