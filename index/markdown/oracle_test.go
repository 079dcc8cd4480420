package markdown

// The oracle: goldmark (CommonMark + GitHub's extensions) parses the same
// Markdown, and what canon's scanner extracts must equal what goldmark's
// tree holds: links (destination, text, line), the reference definitions
// used and unused, headings and their anchors. Deliberate differences are
// listed in docs/markdown-scanner.md and in knownDifference below.

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/text/cases"

	"github.com/canon-md/canon/index/indextest/citool"
)

// oracleItem is one thing both parsers find, as a comparable line.
type oracleView struct {
	links    []string // "form line dest | text"
	refDests []string // destinations reference links resolve to
	headings []string // "level line slug | text"
	defsUsed []string // labels
	defsIdle []string
}

// GitHub renders footnotes too ([^1]: text is a footnote, not a definition).
var gm = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

func lineOf(src []byte, off int) int {
	if off < 0 {
		return 0
	}
	// A lone CR ends a line too.
	return strings.Count(loneCRs(string(src[:min(off, len(src))])), "\n") + 1
}

// plain is the text of n as GitHub's renderer makes it: backslash escapes
// and entities decoded, a line break as "\n"; image alt text is kept for a
// link's text (alt) and left out of a heading's, as HTML's text content is.
func plain(n ast.Node, src []byte, alt bool) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.WriteString(unescape(string(t.Segment.Value(src))))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for k := t.FirstChild(); k != nil; k = k.NextSibling() {
				if tx, ok := k.(*ast.Text); ok {
					b.WriteString(strings.ReplaceAll(string(tx.Segment.Value(src)), "\n", " "))
					if tx.SoftLineBreak() || tx.HardLineBreak() {
						b.WriteByte(' ') // a line ending in code is a space
					}
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(t.Label(src))
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			if !alt && c != n {
				return ast.WalkSkipChildren, nil
			}
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// noEmptyFragment drops an empty fragment, which canon does not keep:
// "x#" is "x" (but "x#C#" stays).
func noEmptyFragment(dest string) string {
	if dest != "" && strings.IndexByte(dest, '#') == len(dest)-1 {
		return dest[:len(dest)-1]
	}
	return dest
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func normLabel(s string) string { return cases.Fold().String(strings.Join(strings.Fields(s), " ")) }

// fromGoldmark is what goldmark's tree holds.
func fromGoldmark(src []byte) oracleView {
	var v oracleView
	ctx := parser.NewContext()
	doc := gm.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	used := map[string]bool{}
	var slugs Slugger
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Link, *ast.Image:
			var bl *ast.Link
			var dest string
			var ref *ast.ReferenceLink
			form := "markdown"
			if l, ok := t.(*ast.Link); ok {
				bl, dest, ref = l, string(l.Destination), l.Reference
			} else {
				im := t.(*ast.Image)
				dest, ref, form = string(im.Destination), im.Reference, "image"
			}
			_ = bl
			if ref != nil {
				used[normLabel(string(ref.Value))] = true
				v.refDests = append(v.refDests, unescape(noEmptyFragment(dest)))
				return ast.WalkContinue, nil
			}
			dest = noEmptyFragment(dest)
			v.links = append(v.links, fmt.Sprintf("%s %d %s | %s", form, lineOf(src, n.Pos()), unescape(dest), oneLine(plain(n, src, true))))
		case *ast.AutoLink:
			url := string(t.URL(src))
			if t.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(url, "mailto:") {
				url = "mailto:" + url
			}
			v.links = append(v.links, fmt.Sprintf("autolink %d %s | %s", lineOf(src, n.Pos()), url, string(t.Label(src))))
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			txt := plain(n, src, false)
			line := "-" // an empty heading has no lines in goldmark's tree
			if t.Lines().Len() > 0 {
				line = strconv.Itoa(lineOf(src, t.Lines().At(0).Start))
			}
			v.headings = append(v.headings, fmt.Sprintf("%d %s %s | %s", t.Level, line, slugs.Next(txt), oneLine(txt)))
		}
		return ast.WalkContinue, nil
	})
	for _, r := range ctx.References() {
		l := normLabel(string(r.Label()))
		if used[l] {
			v.defsUsed = append(v.defsUsed, l)
		} else {
			v.defsIdle = append(v.defsIdle, l)
		}
	}
	sort.Strings(v.defsUsed)
	sort.Strings(v.defsIdle)
	return v
}

// unescape decodes what canon keeps as written: backslash escapes of
// punctuation and entities (goldmark decodes both).
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return entity.ReplaceAllStringFunc(b.String(), func(m string) string {
		if m[1] != '#' { // a name only if HTML5 has it, without HTML's legacy prefixes ("&Auml0;")
			if _, ok := util.LookUpHTML5EntityByName(m[1 : len(m)-1]); !ok {
				return m
			}
		}
		return html.UnescapeString(m)
	})
}

// entity is CommonMark's entity and numeric character reference: the ';'
// is required (HTML's lenient "&#00" without it is text).
var entity = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// fromCanon is what canon's scanner extracts, in the same shape.
func fromCanon(src []byte) oracleView {
	var v oracleView
	b := ScanBody(src, 1)
	defLines := map[int]bool{}
	for _, l := range b.Links {
		dest := l.Dest
		if l.Anchor != "" || strings.HasSuffix(dest, "#") {
			dest += "#" + l.Anchor
		}
		switch l.Form {
		case FormWiki, FormEmbed:
			continue // an extension: compared where goldmark sees no link (below)
		case FormAutolink:
			v.links = append(v.links, fmt.Sprintf("autolink %d %s | %s", l.Line, dest, l.Text))
		case FormImage:
			v.links = append(v.links, fmt.Sprintf("image %d %s | %s", l.Line, unescape(dest), strings.Join(strings.Fields(l.Text), " ")))
		default:
			if isDefinition(src, l) {
				defLines[l.Line] = true
				v.defsUsed = append(v.defsUsed, normLabel(l.Text))
				v.refDests = append(v.refDests, unescape(noEmptyFragment(dest)))
				continue
			}
			v.links = append(v.links, fmt.Sprintf("markdown %d %s | %s", l.Line, unescape(dest), strings.Join(strings.Fields(l.Text), " ")))
		}
	}
	for _, u := range b.UnusedDefinitions {
		v.defsIdle = append(v.defsIdle, normLabel(u.Text))
	}
	for _, h := range b.Headings {
		line := strconv.Itoa(h.Line)
		if h.Text == "" {
			line = "-"
		}
		v.headings = append(v.headings, fmt.Sprintf("%d %s %s | %s", h.Level, line, h.Slug, oneLine(h.Text)))
	}
	sort.Strings(v.defsUsed)
	sort.Strings(v.defsIdle)
	return v
}

// isDefinition tells a recorded reference definition from a link: canon
// records a used definition once, at the definition.
func isDefinition(src []byte, l Link) bool {
	lines := strings.Split(loneCRs(string(src)), "\n")
	if l.Line-1 >= len(lines) {
		return false
	}
	line := []rune(lines[l.Line-1])
	// The lines after it continue it inside the same containers: take off
	// the block quote markers the first line has before the definition.
	prefix := strings.TrimRight(string(line[:min(l.Col-1, len(line))]), " ")
	var more []string
	for _, ln := range lines[l.Line:] {
		if prefix != "" && strings.HasPrefix(ln, prefix) {
			ln = strings.TrimPrefix(strings.TrimPrefix(ln, prefix), " ")
		}
		more = append(more, ln)
	}
	rest := string(line[min(l.Col-1, len(line)):]) + "\n" + strings.Join(more, "\n")
	if !strings.HasPrefix(rest, "[") {
		return false
	}
	_, _, _, ok := definition(rest, 0, len(rest))
	return ok
}

// diffView lists the differences between the two views.
func diffView(g, c oracleView) []string {
	var out []string
	cmp := func(what string, a, b []string, set bool) {
		if set {
			a, b = uniqSorted(a), uniqSorted(b)
		}
		ma, mb := map[string]int{}, map[string]int{}
		for _, x := range a {
			ma[x]++
		}
		for _, x := range b {
			mb[x]++
		}
		for x, n := range ma {
			if mb[x] < n {
				out = append(out, fmt.Sprintf("%s only in goldmark: %s", what, x))
			}
		}
		for x, n := range mb {
			if ma[x] < n {
				out = append(out, fmt.Sprintf("%s only in canon: %s", what, x))
			}
		}
	}
	cmp("link", g.links, c.links, false)
	cmp("reference destination", g.refDests, c.refDests, true)
	cmp("heading", g.headings, c.headings, false)
	cmp("used definition", g.defsUsed, c.defsUsed, true)
	cmp("unused definition", g.defsIdle, c.defsIdle, true)
	sort.Strings(out)
	return out
}

func uniqSorted(a []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range a {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

type specExample struct {
	Markdown string `json:"markdown"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
}

func goldmarkDir(t testing.TB) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		citool.Need(t, "goldmark's module is not available to read its spec examples: %v", err)
	}
	return dir
}

// gfmExamples reads goldmark's extension test files: cases separated by
// //- - - lines, markdown before //- - - -, html after.
func gfmExamples(t *testing.T, dir string) []specExample {
	var out []specExample
	for _, f := range []string{"table.txt", "strikethrough.txt", "linkify.txt", "tasklist.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, "extension", "_test", f))
		if err != nil {
			t.Fatal(err)
		}
		cases := strings.Split(string(data), "//= = = = = = = = = = = = = = = = = = = = = = = =//")
		for i, c := range cases {
			parts := strings.Split(c, "//- - - - - - - - -//")
			if len(parts) < 3 {
				continue
			}
			out = append(out, specExample{Markdown: strings.TrimPrefix(parts[1], "\n"), Example: i + 1, Section: "GFM " + f})
		}
	}
	return out
}

// TestOracle compares canon's scanner with goldmark over the CommonMark spec
// examples, goldmark's GFM extension cases and real documents (this
// repository's and the example backlog's). The differences that remain are
// deliberate (knownDifference); anything else fails.
func TestOracle(t *testing.T) {
	t.Parallel()
	dir := goldmarkDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "_test", "spec.json"))
	if err != nil {
		citool.Need(t, "goldmark's spec examples: %v", err)
	}
	var examples []specExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	examples = append(examples, gfmExamples(t, dir)...)
	var files []string
	for _, root := range []string{"../../docs", "../../README.md", "../../testdata"} {
		files = append(files, markdownFiles(t, root)...)
	}
	// CANON_ORACLE_CORPUS names more folders to compare over, such as a
	// clone of rust-lang/rfcs (a list separated like PATH).
	for _, root := range filepath.SplitList(os.Getenv("CANON_ORACLE_CORPUS")) {
		files = append(files, markdownFiles(t, root)...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		body := b
		if d := Parse(f, b, &Options{}); d.BodyLine > 1 {
			lines := strings.SplitAfter(string(b), "\n")
			body = []byte(strings.Repeat("\n", d.BodyLine-1) + strings.Join(lines[min(d.BodyLine-1, len(lines)):], ""))
		}
		examples = append(examples, specExample{Markdown: string(body), Section: "corpus " + f})
	}
	if cmarkGFM() == "" {
		t.Log("cmark-gfm is not installed: the differences are judged by the written-down rules alone")
	}
	total, deliberate := 0, map[string]int{}
	var unexplained []string
	for _, ex := range examples {
		for _, d := range judge(t, ex) {
			total++
			if d.why != "" {
				deliberate[d.why]++
				continue
			}
			unexplained = append(unexplained, fmt.Sprintf("%s example %d: %s\n%q", ex.Section, ex.Example, d.what, ex.Markdown))
		}
	}
	t.Logf("%d examples; %d differences, %d of them deliberate:", len(examples), total, total-len(unexplained))
	var whys []string
	for w := range deliberate {
		whys = append(whys, w)
	}
	sort.Strings(whys)
	for _, w := range whys {
		t.Logf("  %3d  %s", deliberate[w], w)
	}
	for i, u := range unexplained {
		if i == 400 {
			t.Errorf("... and %d more", len(unexplained)-40)
			break
		}
		t.Error(u)
	}
}

// difference is one difference between goldmark and canon, and why it is
// deliberate ("" when it is not).
type difference struct{ what, why string }

// githubDiffers is the reason for a difference cmark-gfm settles for canon.
const githubDiffers = "goldmark differs from GitHub's renderer here (cmark-gfm renders what canon extracts)"

// judge compares goldmark's view of ex with canon's and says which
// differences are deliberate: a written-down rule (knownDifference), which
// cmark-gfm must confirm when it is installed, or cmark-gfm's rendering
// alone. A rule cmark-gfm contradicts is not deliberate but wrong.
func judge(t testing.TB, ex specExample) []difference {
	src := []byte(ex.Markdown)
	cv := fromCanon(src)
	diffs := diffView(fromGoldmark(src), cv)
	if len(diffs) == 0 {
		return nil
	}
	// canon's links as "DEST | TEXT", counted, for the arbiter.
	canonLinks := map[string]int{}
	for _, l := range cv.links {
		if f := strings.SplitN(l, " ", 3); len(f) == 3 {
			canonLinks[ctlFree(f[2])]++
		}
	}
	gh, haveGH := fromGitHub(t, src)
	out := make([]difference, 0, len(diffs))
	for _, d := range diffs {
		why := knownDifference(ex, d)
		if strings.HasPrefix(why, "canon keeps") {
			// a bound of canon's, not a claim about GitHub
		} else if haveGH && !githubAgrees(t, gh, src, d, diffs, canonLinks) {
			if why != "" && !strings.HasPrefix(d, "reference") && !strings.Contains(d, "definition") {
				why = "" // the rule claims GitHub's behaviour, and cmark-gfm says otherwise
			}
		} else if haveGH && why == "" {
			why = githubDiffers
		}
		out = append(out, difference{d, why})
	}
	return out
}

// markdownFiles lists the Markdown files under root (root itself when it is one).
func markdownFiles(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gmURLChar reports whether goldmark's linkify takes r into a URL (ASCII
// letters, digits and some punctuation; cmark-gfm takes anything but white
// space and '<').
func gmURLChar(r rune) bool {
	return r < utf8.RuneSelf && (isASCIIAlnum(byte(r)) || strings.ContainsRune("-@:%._+~#=/?!&;,'\"()>^{}[]`$", r))
}

// knownDifference says why a difference is deliberate ("" when it is not).
// Each reason is written down in docs/markdown-scanner.md.
func knownDifference(ex specExample, d string) string {
	// "autolink LINE URL | TEXT"
	url := func(rest string) string {
		if f := strings.Fields(rest); len(f) > 2 && f[0] == "autolink" {
			return f[2]
		}
		return ""
	}
	if strings.HasPrefix(d, "link only in ") {
		if _, text, ok := strings.Cut(d, " | "); ok && len(text) >= maxLinkText {
			return "canon keeps the first 512 bytes of a link's text (a bound, ADR-0016)"
		}
	}
	if rest, ok := strings.CutPrefix(d, "link only in canon: autolink "); ok && strings.Contains(rest, " mailto:") {
		if _, text, ok := strings.Cut(rest, " | "); ok && strings.ContainsAny(text[:1]+text[len(text)-1:], "_*") {
			return "canon keeps e-mail autolinks apart from emphasis: cmark-gfm finds addresses after pairing emphasis, so \"_a@b.c!_\" is emphasis there (no effect on checks: a mailto: link is external)"
		}
	}
	const runs = "a bare URL runs to the next white space or '<' on GitHub (cmark-gfm), so \"https://a.example/x）。次\" or \"https://a.example/a|b\" links all of it; goldmark stops at the first character outside its URL set"
	if rest, ok := strings.CutPrefix(d, "link only in canon: "); ok {
		if u := url(rest); u != "" {
			at := strings.Index(ex.Markdown, u)
			if at > 0 {
				if c := ex.Markdown[at-1]; !isCmarkSpace(c) && !strings.ContainsRune("*_~(", rune(c)) {
					return "a bare URL after any character is a link on GitHub (cmark-gfm looks at nothing before the scheme; goldmark wants a space or one of *_~( there)"
				}
			}
			if _, after, ok := strings.Cut(u, "://"); ok {
				host := after[:strings.IndexFunc(after+"/", func(r rune) bool { return strings.ContainsRune("/?#:", r) })]
				dot := strings.LastIndexByte(host, '.')
				if dot < 0 || dot == len(host)-1 || strings.ContainsFunc(host[dot+1:], func(r rune) bool { return r < 'a' || r > 'z' }) {
					return "a URL's host needs no top-level domain of letters on GitHub (cmark-gfm links http://localhost/x and http://10.0.0.1); goldmark wants one"
				}
			}
			if strings.ContainsFunc(u, func(r rune) bool { return !gmURLChar(r) }) {
				return runs
			}
		}
	}
	if rest, ok := strings.CutPrefix(d, "link only in goldmark: "); ok {
		if u := url(rest); u != "" {
			if at := strings.Index(ex.Markdown, u); at >= 0 {
				after := ex.Markdown[at+len(u):]
				if k := strings.IndexFunc(after, func(r rune) bool { return r < utf8.RuneSelf && (isCmarkSpace(byte(r)) || r == '<') }); k >= 0 {
					after = after[:k]
				}
				if strings.ContainsFunc(after, func(r rune) bool { return !gmURLChar(r) }) {
					return runs
				}
			}
		}
	}
	return ""
}

// FuzzOracle compares canon's scanner with goldmark on random Markdown,
// seeded with the CommonMark and GFM spec examples: a difference that is
// not deliberate (knownDifference) fails.
func FuzzOracle(f *testing.F) {
	dir := goldmarkDir(f)
	if data, err := os.ReadFile(filepath.Join(dir, "_test", "spec.json")); err == nil {
		var examples []specExample
		if err := json.Unmarshal(data, &examples); err != nil {
			f.Fatal(err)
		}
		for _, ex := range examples {
			f.Add(ex.Markdown)
		}
	}
	f.Fuzz(func(t *testing.T, md string) {
		// Control characters other than tab and line endings are left to
		// the unit tests: cmark-gfm writes them into XML, which cannot
		// hold them, so the arbiter would compare mangled text.
		if len(md) > 4096 || !utf8.ValidString(md) || strings.ContainsFunc(md, func(r rune) bool {
			return r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
		}) {
			return
		}
		var unexplained []string
		for _, d := range judge(t, specExample{Markdown: md, Section: "fuzz"}) {
			if d.why == "" {
				unexplained = append(unexplained, d.what)
			}
		}
		if len(unexplained) > 0 && cmarkGFM() == "" {
			// Some seeds are places where goldmark departs from GitHub:
			// only GitHub's renderer can settle them.
			citool.Need(t, "goldmark and canon differ and cmark-gfm is not installed to say which one GitHub agrees with: %s", unexplained[0])
		}
		for _, u := range unexplained {
			t.Errorf("%s\n%q", u, md)
		}
	})
}
