package markdown

import (
	"strings"
	"testing"
	"fmt"
	"os"
	"sort"
	"time"
)

func TestZZPatho(t *testing.T) {
	n := 80000
	var ticks strings.Builder
	for i := 1; i < 300; i++ { ticks.WriteString(strings.Repeat("`", i)); ticks.WriteString(" x ") }
	cases := map[string]string{
		"open brackets": strings.Repeat("[", n) + strings.Repeat("a](b)", n),
		"close brackets": strings.Repeat("[a]", n),
		"paren dest": strings.Repeat("[a](", n),
		"nested parens": "[a](" + strings.Repeat("(", n),
		"backticks": strings.Repeat("` ", n),
		"tick runs": ticks.String(),
		"emph": "# " + strings.Repeat("*a_ ", n),
		"emph2": "# " + strings.Repeat("**a* ", n),
		"links heading": "# " + strings.Repeat("[a](b) ", n),
		"lt": strings.Repeat("<a ", n),
		"comment": strings.Repeat("<!-- ", n),
		"urls": strings.Repeat("http://a.b/( ", n),
		"colons": strings.Repeat("a:// ", n),
		"www": strings.Repeat("www.", n),
		"quotes": strings.Repeat("> ", n) + "x\n" + strings.Repeat(">", n),
		"lists": strings.Repeat("- ", n) + "x\n",
		"deep lists": func() string { var b strings.Builder; for i := 0; i < 2000; i++ { b.WriteString(strings.Repeat(" ", i*2) + "- x\n") }; return b.String() }(),
		"many lines para": strings.Repeat("a [b](c)\n", n),
		"quote para": strings.Repeat("> a [b](c)\n", n),
		"setext": strings.Repeat("a\n", n) + "===\n",
		"wiki": strings.Repeat("[[a", n) + "]]",
		"images": strings.Repeat("![", n) + strings.Repeat("](x)", n),
		"title": "[a](b \"" + strings.Repeat("x\n", n),
		"defs": strings.Repeat("[a]: b\n", n),
		"entities": "# " + strings.Repeat("&amp;", n),
		"long line": strings.Repeat("a", 1000000),
		"heading refs": strings.Repeat("# [a][b]\n", 2000) + strings.Repeat("[b]: c\n", 2000),
	}
	names := []string{}
	for name := range cases { names = append(names, name) }
	sort.Strings(names)
	for _, name := range names {
		src := cases[name]
		if os.Getenv("ONLY") != "" && os.Getenv("ONLY") != name { continue }
		fmt.Println("start", name)
		start := time.Now()
		ScanBody([]byte(src), 1)
		if d := time.Since(start); d > 100*time.Millisecond {
			fmt.Printf("SLOW %s: %d bytes %v\n", name, len(src), d)
		}
	}
}
