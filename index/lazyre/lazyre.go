package lazyre

import (
	"regexp"
	"sync"
)

// Regexp compiles its expression at first use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// MustCompile returns a Regexp for expr; it panics at first use if expr
// does not compile. Call it in package variable declarations only (they
// run one at a time, before main).
func MustCompile(expr string) *Regexp {
	r := &Regexp{expr: expr}
	all = append(all, r)
	return r
}

// all is every Regexp made, for All.
var all []*Regexp

// All lists every Regexp made so far (by the package variables of the
// packages linked in), for a test to compile them all.
func All() []*Regexp { return all }

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text.
func (r *Regexp) String() string { return r.expr }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.Regexp().FindString(s) }

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }
