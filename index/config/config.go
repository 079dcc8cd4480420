package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/safepath"
)

// Dir is the repo-relative folder holding canon's committed configuration.
const Dir = ".canon"

// File is the repo-relative path of the configuration file.
const File = Dir + "/config.yaml"

// Config is the effective configuration: the defaults with the file laid over
// them.
type Config struct {
	// Roots are repo-relative folders whose Markdown files are documents.
	Roots []string `yaml:"roots" json:"roots"`
	// Exclude holds gitignore-style patterns of paths that are never documents.
	// .gitignore files are honoured as well.
	Exclude []string `yaml:"exclude" json:"exclude"`
	// MaxFileSize is the size above which a file is skipped with a problem.
	MaxFileSize Size `yaml:"max_file_size" json:"max_file_size"`
	// Edges maps a frontmatter field (dotted for nesting) to an edge type.
	Edges map[string]string `yaml:"edges" json:"edges"`
	// Kinds maps a `type` value (matched without case) to a kind.
	Kinds map[string]string `yaml:"kinds" json:"kinds"`
	// Namespaces are folders that are id spaces of their own.
	Namespaces Namespaces `yaml:"namespaces" json:"namespaces"`
	// Prefixes map an id prefix the repository once used to the one it
	// uses now, lower-cased: a reference OLD-NUMBER that names no document
	// names NEW-NUMBER (Backlog.md's task_prefix, ADR-0051).
	Prefixes map[string]string `yaml:"prefixes" json:"prefixes,omitempty"`
	// RepoURLs are the repository's own web addresses, as RepoURLBase
	// writes them (github.com/owner/repo): a link to a file or folder under
	// one of them (…/blob/main/docs/x.md) names the document at that path.
	RepoURLs []string `yaml:"repo_urls" json:"repo_urls,omitempty"`
	// BareNumbers are id prefixes whose documents a bare number names: a
	// reference 2718 names eip-2718 (the EIPs' requires: 2718, 2930),
	// lower-cased.
	BareNumbers []string `yaml:"bare_numbers" json:"bare_numbers,omitempty"`
	// Templates are paths or globs (doublestar) of the files that are
	// templates to copy, not documents (eip-template.md,
	// .github/PULL_REQUEST_TEMPLATE/*.md): indexed and searched, but left
	// out of canon check, ready, blocked and context packs (IsTemplate).
	Templates []string `yaml:"templates" json:"templates,omitempty"`
	// Fixtures are paths or globs (doublestar) of test fixtures: copies of
	// documents kept elsewhere, in a folder such as testdata/ (which Go's
	// tools ignore), fixtures/ or __fixtures__/. Like templates they are
	// indexed and searched but left out of canon check, ready, blocked and
	// context packs (LeftOut).
	Fixtures []string `yaml:"fixtures" json:"fixtures,omitempty"`
	// Sidecars are YAML files beside a folder's README.md that hold its
	// document's fields (kep.yaml); they shape the index (IndexHash).
	Sidecars []Sidecar `yaml:"sidecars" json:"sidecars,omitempty"`
	// States says which states count as open and which as done.
	States States `json:"states"`
	// Context shapes context packs (graph/context).
	Context Context `json:"context"`
	// Check configures canon check's rules and per-kind schemas.
	Check Check `json:"check"`
	// Workset bounds worksets (workset/).
	Workset Workset `json:"workset"`
	// Watch tunes canon watch.
	Watch Watch `json:"watch"`
	// Work says what ready and blocked list, in which order, and which
	// folders are archives.
	Work Work `json:"work"`
	// Frontmatter says how frontmatter is read (the tool's own rules).
	Frontmatter Frontmatter `json:"frontmatter"`
	// Tool is the tool canon init found had written the documents ("" when
	// none): the learned block's tool.
	Tool string `json:"tool,omitempty"`
	// Branches says which refs the overlays follow (ADR-0042).
	Branches Branches `json:"branches"`
	// Merge configures the merge driver.
	Merge Merge `json:"merge"`
	// IDs says how canon id next mints ids (ADR-0044).
	IDs IDs `json:"ids"`
}

// Size is a byte count written as 5MB, 512KiB or a plain number.
type Size int64

// MaxFileSizeCeiling is the most max_file_size may be (ADR-0032). The
// configuration comes with the repository, and a document costs several
// times its size while it is indexed and checked (a 200 MB file took
// 789 MB for canon index --full and 1.5 GB for a staged check): at 32 MiB
// the worst file stays far below a 2 GB machine, and it is six times the
// default, more than any Markdown document written by hand.
const MaxFileSizeCeiling = 32 << 20

// UnmarshalYAML accepts a number of bytes or a number with a unit.
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseSize(n.Value)
	if err != nil {
		return err // the file's line comes with it (yamlError)
	}
	*s = v
	return nil
}

// ParseSize reads "5MB", "512 KiB", "1000" and the like.
func ParseSize(text string) (Size, error) {
	t := strings.TrimSpace(text)
	units := []struct {
		suffix string
		mult   int64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
		{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
		{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
	}
	lower := strings.ToLower(t)
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(lower, u.suffix) {
			mult = u.mult
			lower = strings.TrimSpace(strings.TrimSuffix(lower, u.suffix))
			break
		}
	}
	n, err := strconv.ParseFloat(lower, 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || math.IsNaN(n) || n*float64(mult) >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q is not a size; write it like 5MB or 512KiB", text)
	}
	return Size(n * float64(mult)), nil
}

// String writes the size the way a person would.
func (s Size) String() string {
	switch {
	case s >= 1<<20 && s%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", s>>20)
	case s >= 1000*1000 && s%(1000*1000) == 0:
		return fmt.Sprintf("%dMB", s/(1000*1000))
	case s >= 1<<10 && s%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", s>>10)
	}
	return strconv.FormatInt(int64(s), 10)
}

// DefaultEdges is the default frontmatter field → edge type mapping
// (docs/architecture.md, "Documents, identity, edges").
func DefaultEdges() map[string]string {
	return map[string]string{
		"parent":           "parent",
		"links.relates":    "relates",
		"relates":          "relates",
		"links.blocks":     "blocks",
		"blocks":           "blocks",
		"links.blocked_by": "blocked_by",
		"blocked_by":       "blocked_by",
		"depends_on":       "depends_on",
		"links.depends_on": "depends_on",
		"decisions":        "decision_ref",
		"related_items":    "relates",
		"supersedes":       "supersedes",
		"superseded_by":    "supersedes",
		"replaces":         "supersedes",
		"group":            "group",
	}
}

// DefaultKinds maps the `type` values seen in backlogs to canon's kinds.
func DefaultKinds() map[string]string {
	return map[string]string{
		"epic":       "epic",
		"feature":    "feature",
		"userstory":  "story",
		"user story": "story",
		"user_story": "story",
		"story":      "story",
		"task":       "task",
		"subtask":    "task",
		"sub-task":   "task",
		"bug":        "bug",
		"adr":        "adr",
		"decision":   "adr",
		"index":      "index",
		"group":      "group",
	}
}

// Default returns the configuration canon uses when there is no file.
func Default() *Config {
	return &Config{
		Roots:       []string{"."},
		Exclude:     []string{"node_modules/", "vendor/", "third_party/"},
		MaxFileSize: 5 * 1000 * 1000,
		Edges:       DefaultEdges(),
		Kinds:       DefaultKinds(),
		Namespaces:  DefaultNamespaces(),
		States:      DefaultStates(),
		Context:     DefaultContext(),
		Check:       DefaultCheck(),
		Workset:     DefaultWorkset(),
		Watch:       DefaultWatch(),
		Work:        DefaultWork(),
		Branches:    DefaultBranches(),
		IDs:         DefaultIDs(),
	}
}

// list is a list of texts that may be written as one text: "roots: docs"
// is "roots: [docs]".
type list []string

// UnmarshalYAML reads a sequence of texts, or one text as a list of one.
func (l *list) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		*l = list{n.Value}
		return nil
	}
	var xs []string
	if err := n.Load(&xs); err != nil {
		return err
	}
	*l = xs
	return nil
}

// Error is a configuration file problem with its position.
type Error struct {
	Path string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// fileConfig is the file's shape; pointers tell "absent" from "empty".
type fileConfig struct {
	Roots       list              `yaml:"roots"`
	Exclude     list              `yaml:"exclude"`
	MaxFileSize *Size             `yaml:"max_file_size"`
	Edges       map[string]string `yaml:"edges"`
	Kinds       map[string]string `yaml:"kinds"`
	Namespaces  *[]Namespace      `yaml:"namespaces"`
	Prefixes    map[string]string `yaml:"prefixes"`
	RepoURLs    *list             `yaml:"repo_urls"`
	BareNumbers *list             `yaml:"bare_numbers"`
	Templates   *list             `yaml:"templates"`
	Fixtures    *list             `yaml:"fixtures"`
	Sidecars    *[]Sidecar        `yaml:"sidecars"`
	States      *States           `yaml:"states"`
	Context     yaml.Node         `yaml:"context"`
	Check       yaml.Node         `yaml:"check"`
	Workset     yaml.Node         `yaml:"workset"`
	Watch       yaml.Node         `yaml:"watch"`
	Work        yaml.Node         `yaml:"work"`
	Frontmatter *Frontmatter      `yaml:"frontmatter"`
	Learned     yaml.Node         `yaml:"learned"`
	Branches    yaml.Node         `yaml:"branches"`
	Merge       yaml.Node         `yaml:"merge"`
	IDs         yaml.Node         `yaml:"ids"`
}

// fromTemplate is Parse(File, Template) without the parse: the defaults,
// with the rules the template names marked configured (every rule but
// those whose default adapts to the repository). TestTemplateShortcut
// holds the two equal.
func fromTemplate() *Config {
	cfg := Default()
	cfg.Check.Configured = map[string]bool{}
	for rule := range DefaultRules() {
		if !Adapts(rule) {
			cfg.Check.Configured[rule] = true
		}
	}
	return cfg
}

// Adapts reports whether a rule's default severity follows the repository
// in front of it: an error that is likely a false alarm there is reported
// as a warning, saying why (canon check, ADR-0027). The template leaves
// these rules out, as naming a rule in the configuration fixes its
// severity.
func Adapts(rule string) bool {
	switch rule {
	case "wiki-link", "dangling-ref", "ambiguous-ref", "duplicate-id":
		return true
	}
	return false
}

// Load reads .canon/config.yaml under root. A missing file gives the defaults.
func Load(root string) (*Config, error) {
	path := filepath.Join(root, File)
	data, err := safepath.ReadFile(path, safepath.ConfigLimit, root)
	var cfg *Config
	switch {
	case errors.Is(err, fs.ErrNotExist):
		cfg = Default()
	case err != nil:
		return nil, fmt.Errorf("read config: %w", err)
	case string(data) == Template:
		// The file canon init wrote, unchanged: what parsing it gives is
		// known, and parsing 8 KB of commented YAML was a tenth of a hook.
		cfg = fromTemplate()
	default:
		// The template and a learned block after it: only the block is
		// parsed.
		if cfg = learnedAfterTemplate(data); cfg != nil {
			break
		}
		if cfg, err = Parse(File, data); err != nil {
			return nil, err
		}
	}
	// A Kano project's products are namespaces with no configuration; an
	// entry of the file for the same folder wins.
	kano, err := detectKano(root)
	if err != nil {
		return nil, err
	}
	var add Namespaces
	for _, k := range kano {
		if !cfg.Namespaces.has(k.Path) {
			add = append(add, k)
		}
	}
	if len(add) > 0 {
		// Explicit folders before globs, so that a product's own entry
		// decides where the default glob would also match.
		var explicit, globs Namespaces
		for _, n := range cfg.Namespaces {
			if strings.ContainsAny(n.Path, "*?[") {
				globs = append(globs, n)
			} else {
				explicit = append(explicit, n)
			}
		}
		cfg.Namespaces = append(append(explicit, add...), globs...)
	}
	return cfg, nil
}

func (ns Namespaces) has(p string) bool {
	for _, n := range ns {
		if n.Path == p {
			return true
		}
	}
	return false
}

// Parse lays the YAML in data over the defaults. Unknown keys are errors, so
// a typo never silently does nothing.
func Parse(name string, data []byte) (*Config, error) {
	cfg := Default()
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil
	}
	var fc fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil {
		return nil, yamlError(name, data, err)
	}
	if err := cfg.applyFiles(&fc); err != nil {
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	if err := cfg.applyReferences(&fc); err != nil {
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	if err := cfg.mergeSections(&fc); err != nil {
		return nil, yamlError(name, data, err)
	}
	if fc.Frontmatter != nil {
		cfg.Frontmatter = *fc.Frontmatter
	}
	if fc.Learned.Kind != 0 {
		l, err := decodeLearned(&fc.Learned)
		if err != nil {
			return nil, yamlError(name, data, err)
		}
		if err := cfg.applyLearned(l, &fc); err != nil {
			return nil, &Error{Path: name, Msg: err.Error()}
		}
	}
	return cfg, nil
}

// applyFiles lays the file's choice of what is indexed over the defaults:
// roots, exclude and max_file_size.
func (c *Config) applyFiles(fc *fileConfig) error {
	if fc.Roots != nil {
		c.Roots = nil
		for _, r := range fc.Roots {
			if err := checkPrintable("roots", strings.TrimSpace(r)); err != nil {
				return err
			}
			clean, err := cleanRoot(r)
			if err != nil {
				return err
			}
			c.Roots = append(c.Roots, clean)
		}
		if len(c.Roots) == 0 {
			return errors.New("roots is empty; list at least one folder, for example \".\"")
		}
	}
	if fc.Exclude != nil {
		if err := checkPrintables("exclude", fc.Exclude); err != nil {
			return err
		}
		c.Exclude = fc.Exclude
	}
	if fc.MaxFileSize != nil {
		if *fc.MaxFileSize <= 0 {
			return errors.New("max_file_size must be positive")
		}
		if *fc.MaxFileSize > MaxFileSizeCeiling {
			return fmt.Errorf("max_file_size %s is above the %s canon allows (a document costs several times its size to index); lower it, or leave such files out with exclude", *fc.MaxFileSize, Size(MaxFileSizeCeiling))
		}
		c.MaxFileSize = *fc.MaxFileSize
	}
	return nil
}

// applyReferences lays the file's reading of documents and their
// references over the defaults: edges, kinds, namespaces, prefixes,
// repo_urls, bare_numbers and states.
func (c *Config) applyReferences(fc *fileConfig) error {
	for field, typ := range fc.Edges {
		if typ == "" || typ == "none" {
			delete(c.Edges, field)
			continue
		}
		c.Edges[field] = typ
	}
	for typ, kind := range fc.Kinds {
		if kind == "" {
			return fmt.Errorf("kinds.%s is empty; name a kind such as task", typ)
		}
		c.Kinds[strings.ToLower(typ)] = kind
	}
	if fc.Namespaces != nil {
		c.Namespaces = Namespaces(*fc.Namespaces)
	}
	if fc.Prefixes != nil {
		p, err := checkPrefixes("prefixes", fc.Prefixes)
		if err != nil {
			return err
		}
		c.Prefixes = p
	}
	if fc.RepoURLs != nil {
		u, err := checkRepoURLs("repo_urls", *fc.RepoURLs)
		if err != nil {
			return err
		}
		c.RepoURLs = u
	}
	if fc.BareNumbers != nil {
		b, err := checkBareNumbers("bare_numbers", *fc.BareNumbers)
		if err != nil {
			return err
		}
		c.BareNumbers = b
	}
	if fc.Templates != nil {
		t, err := checkTemplates("templates", *fc.Templates)
		if err != nil {
			return err
		}
		c.Templates = t
	}
	if fc.Fixtures != nil {
		t, err := checkTemplates("fixtures", *fc.Fixtures)
		if err != nil {
			return err
		}
		c.Fixtures = t
	}
	if fc.Sidecars != nil {
		sc, err := checkSidecars("sidecars", *fc.Sidecars)
		if err != nil {
			return err
		}
		c.Sidecars = sc
	}
	if fc.States != nil {
		if err := c.States.merge(fc.States); err != nil {
			return err
		}
	}
	return nil
}

// mergeSections merges each section the file has (context, check,
// workset, watch, work, merge, ids, branches) into its defaults; an error
// is the YAML's, with its place.
func (c *Config) mergeSections(fc *fileConfig) error {
	// A section absent from the file leaves its node zero. (A *yaml.Node
	// field would not capture the node in yaml v4.)
	if fc.Context.Kind != 0 {
		if err := c.Context.merge(&fc.Context); err != nil {
			return err
		}
	}
	if fc.Check.Kind != 0 {
		if err := c.Check.merge(&fc.Check); err != nil {
			return err
		}
	}
	if fc.Workset.Kind != 0 {
		if err := c.Workset.merge(&fc.Workset); err != nil {
			return err
		}
	}
	if fc.Watch.Kind != 0 {
		if err := c.Watch.merge(&fc.Watch); err != nil {
			return err
		}
	}
	if fc.Work.Kind != 0 {
		if err := c.Work.merge(&fc.Work); err != nil {
			return err
		}
	}
	if fc.Merge.Kind != 0 {
		if err := c.Merge.merge(&fc.Merge); err != nil {
			return err
		}
	}
	if fc.IDs.Kind != 0 {
		if err := c.IDs.merge(&fc.IDs); err != nil {
			return err
		}
	}
	if fc.Branches.Kind != 0 {
		if err := c.Branches.merge(&fc.Branches); err != nil {
			return err
		}
	}
	return nil
}

func cleanRoot(r string) (string, error) {
	r = strings.TrimSpace(r)
	if r == "" {
		return "", errors.New("roots has an empty entry")
	}
	c, err := safepath.CleanRel(r)
	if err != nil {
		return "", fmt.Errorf("root %w", err)
	}
	return c, nil
}

func yamlError(name string, data []byte, err error) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) {
		return &Error{Path: name, Msg: err.Error()}
	}
	msg := le.Message
	var field string
	if _, scanErr := fmt.Sscanf(msg, "field %s not found", &field); scanErr == nil {
		msg = fmt.Sprintf("unknown key %q; see the comments canon init writes for the keys", field)
	} else if m := cannotConstruct.FindStringSubmatch(msg); m != nil {
		// "cannot construct !!str `x` into []string": say it as the
		// file's author reads it.
		what := "a " + map[string]string{"!!str": "text", "!!seq": "list", "!!map": "mapping", "!!int": "number", "!!bool": "true or false", "!!float": "number"}[m[1]]
		if what == "a " {
			what = "this value"
		}
		if m[2] != "" {
			what += " (" + m[2] + ")"
		}
		want := "a value of another kind there"
		switch {
		case strings.HasPrefix(m[3], "[]"):
			want = "a list: [a, b], or one \"- item\" a line"
		case strings.HasPrefix(m[3], "map["), strings.HasPrefix(m[3], "config."):
			want = "key: value lines"
		case m[3] == "int" || m[3] == "int64" || m[3] == "float64":
			want = "a number"
		case m[3] == "bool":
			want = "true or false"
		case m[3] == "string":
			want = "a text"
		}
		msg = fmt.Sprintf("%s is %s; write %s", keyAt(data, le.Mark.Line), what, want)
	}
	return &Error{Path: name, Line: le.Mark.Line, Msg: msg}
}

// cannotConstruct is the YAML decoder's message for a value of the wrong
// kind: its tag, the value (for a scalar) and the Go type wanted.
var cannotConstruct = lazyre.MustCompile("^cannot (?:construct|unmarshal) (!![a-z]+)(?: `([^`]*)`)? into (.+)$")

// keyAt is the key written on line (1-based) of data, or "the value".
func keyAt(data []byte, line int) string {
	lines := strings.Split(string(data), "\n")
	if line >= 1 && line <= len(lines) {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[line-1]), "- "))
		if k, _, ok := strings.Cut(t, ":"); ok && k != "" && !strings.ContainsAny(k, " \t\"'[{") {
			return k
		}
	}
	return "the value"
}

// DocKinds is what a document's kind is read from (markdown.Kind): Kinds,
// and for each prefix an old one was renamed to (Prefixes: task → back),
// the kind of the old one (back: task), so that Backlog.md's BACK-12
// without a type is a task as task-12 is.
func (c *Config) DocKinds() map[string]string {
	if len(c.Prefixes) == 0 {
		return c.Kinds
	}
	out := make(map[string]string, len(c.Kinds)+len(c.Prefixes))
	for k, v := range c.Kinds {
		out[k] = v
	}
	carried := map[string]string{} // new prefix → the kind its old ones agree on ("" when they do not)
	for old, now := range c.Prefixes {
		k, ok := c.Kinds[old]
		if !ok {
			continue
		}
		if was, seen := carried[now]; seen && was != k {
			k = "" // task and epic both became back: no kind from them
		}
		carried[now] = k
	}
	for now, k := range carried {
		if _, named := out[now]; !named && k != "" {
			out[now] = k
		}
	}
	return out
}

// KnownKinds are the kinds the configuration names: the kinds types map
// to, those with a check schema, doc and adr.
func (c *Config) KnownKinds() map[string]bool {
	out := map[string]bool{"doc": true, "adr": true}
	for _, k := range c.Kinds {
		out[k] = true
	}
	for k := range c.Check.Schemas {
		out[k] = true
	}
	return out
}

// KnownEdges are the edge types the configuration names (the types its
// fields map to) and canon's own: references (links) and group.
func (c *Config) KnownEdges() map[string]bool {
	out := map[string]bool{"references": true, "group": true}
	for _, t := range c.Edges {
		out[t] = true
	}
	return out
}

// SitePages reports a repository that publishes a site serving each page
// at its path without .md, next to its neighbours, as canon init found its
// tool (Jekyll's permalinks, Docusaurus's paths): there [x](./eip-150) from
// eip-1.md is the page eip-150.md, which GitHub does not serve. Not Hugo:
// its pages are folders (/docs/a/), so ./install from docs/a.md is
// /docs/a/install/, not the file's neighbour. Nor MkDocs, which warns
// about such links itself.
func (c *Config) SitePages() bool {
	switch c.Tool {
	case "jekyll", "docusaurus":
		return true
	}
	return false
}

// PageAddresses reports a repository whose site names its pages by
// addresses canon does not resolve, as canon init found its tool: Hugo's
// pages are folders named by permalinks and languages (/functions/len/),
// and DocFX's (Microsoft Learn) links other sites' pages from the root
// (/dotnet/api/system.string), and Middleman's are its source/ files
// served as .html (/manual/ask-for-help.html for
// source/manual/ask-for-help.html.md). There a link without an extension,
// or one to a page (.html), that names nothing in git's tree is such an
// address, not a broken link.
func (c *Config) PageAddresses() bool {
	switch c.Tool {
	case "hugo", "docfx", "middleman":
		return true
	}
	return false
}

// RendersWikiLinks reports whether the repository's pages render [[x]]
// as a link: not on a Hugo, Jekyll, Docusaurus or DocFX site, as canon
// init found its tool (there it is text: a TOML array of tables in a
// shortcode, a Liquid expression).
func (c *Config) RendersWikiLinks() bool {
	switch c.Tool {
	case "hugo", "jekyll", "docusaurus", "docfx", "middleman":
		return false
	}
	return true
}

// MakesOwnAnchors reports a site that gives pages ids canon does not
// make (Hugo: definition terms, {#id} attributes), so a broken anchor may
// not be one.
func (c *Config) MakesOwnAnchors() bool { return c.Tool == "hugo" }

// IndexHash fingerprints the settings that shape the index's content. When it
// changes, the index is rebuilt.
func (c *Config) IndexHash() string {
	type shape struct {
		Roots       []string
		Exclude     []string
		MaxFileSize Size
		Edges       [][2]string
		Kinds       [][2]string
		Namespaces  [][2]string `json:",omitempty"`
		TextFields  []string    `json:",omitempty"`
		Prefixes    [][2]string `json:",omitempty"`
		RepoURLs    []string    `json:",omitempty"`
		SitePages   bool        `json:",omitempty"`
		BareNumbers []string    `json:",omitempty"`
		StateField  string      `json:",omitempty"`
		Sidecars    []Sidecar   `json:",omitempty"`
	}
	s := shape{Roots: c.Roots, Exclude: c.Exclude, MaxFileSize: c.MaxFileSize,
		Edges: sortedPairs(c.Edges), Kinds: sortedPairs(c.Kinds), Namespaces: c.Namespaces.hash(),
		TextFields: c.Frontmatter.TextFields}
	if len(c.Prefixes) > 0 {
		s.Prefixes = sortedPairs(c.Prefixes)
	}
	s.RepoURLs, s.SitePages, s.BareNumbers, s.StateField = c.RepoURLs, c.SitePages(), c.BareNumbers, c.States.Field
	s.Sidecars = c.Sidecars
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

func sortedPairs(m map[string]string) [][2]string {
	out := make([][2]string, 0, len(m))
	for k, v := range m {
		out = append(out, [2]string{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
