// An index guarded by && or || (len(f) > 0 && g(f[0])) is evaluated only
// when the guard lets it: the common idiom of parsing loops. A call's
// arguments in the right operand of && or || are guarded too.
package main

import (
	"fmt"
	"strings"
)

func main() {
	headers, rss := 0, 0
	for _, l := range strings.Split("7f00-7f01 r-xp /bin/x\nRss: 12 kB\n\nSize: 4 kB\n", "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && !strings.HasSuffix(f[0], ":") {
			headers++
			continue
		}
		if len(f) > 1 && f[0] == "Rss:" {
			rss++
		}
	}
	fmt.Println("headers", headers, "rss lines", rss)

	var f []string
	g := func(s string) bool { return s != "" }
	if len(f) > 0 && g(f[0]) || len(f) < 1 || g(f[2][1:]) {
		fmt.Println("guarded by ||")
	}
	ok := len(f) == 0 || strings.Contains(strings.ToUpper(f[0]), "X")
	fmt.Println("ok", ok, len(f) > 1 && fmt.Sprint(f[1:][0]) == "")
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	fmt.Println(len(f) == 0 && g(f[0]))
}
