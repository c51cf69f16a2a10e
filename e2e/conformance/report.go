package conformance

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Tally counts programs by class.
type Tally map[Class]int

// Total is the number of programs counted.
func (t Tally) Total() int {
	n := 0
	for _, c := range t {
		n += c
	}
	return n
}

// Row is one line of the results table: a corpus, a way of running it, and
// its counts.
type Row struct {
	Corpus, Runner string
	Tally          Tally
}

// WriteTable writes rows as a Markdown table: programs, then the count and
// share of each class.
func WriteTable(w io.Writer, rows []Row) {
	head := []string{"corpus", "run as", "programs"}
	for _, c := range Classes {
		head = append(head, string(c))
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(head, " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(head)))
	for _, r := range rows {
		cells := []string{r.Corpus, r.Runner, fmt.Sprint(r.Tally.Total())}
		for _, c := range Classes {
			cells = append(cells, share(r.Tally[c], r.Tally.Total()))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

func share(n, total int) string {
	if total == 0 || n == 0 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(total))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
