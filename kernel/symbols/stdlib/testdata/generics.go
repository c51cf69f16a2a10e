// A program that calls every function of the generic standard packages; the
// test runs it with `go run` and in yaegi and compares the outputs.
package main

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strings"
)

type person struct {
	name string
	age  int
}

func byAge(a, b person) int { return cmp.Compare(a.age, b.age) }

func countTo(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	nan := math.NaN()
	negz := math.Copysign(0, -1)
	one, zf := 1.0, 0.0

	// cmp
	fmt.Println("cmp.Compare", cmp.Compare(1, 2), cmp.Compare(2, 1), cmp.Compare("a", "a"), cmp.Compare(nan, one), cmp.Compare(one, nan), cmp.Compare(nan, nan))
	fmt.Println("cmp.Less", cmp.Less(1, 2), cmp.Less(nan, zf), cmp.Less(zf, nan), cmp.Less(negz, zf))
	fmt.Println("cmp.Or", cmp.Or(0, 0, 3, 4), cmp.Or("", "x"), cmp.Or(0, 0))

	// slices: comparison and search
	s := []int{5, 2, 8, 2, 9, 1}
	fmt.Println("Equal", slices.Equal(s, []int{5, 2, 8, 2, 9, 1}), slices.Equal(s, s[:2]), slices.Equal([]float64{nan}, []float64{nan}))
	fmt.Println("EqualFunc", slices.EqualFunc([]int{1, 2}, []string{"1", "2"}, func(a int, b string) bool { return fmt.Sprint(a) == b }))
	fmt.Println("Compare", slices.Compare([]int{1, 2}, []int{1, 3}), slices.Compare([]int{1, 2}, []int{1}), slices.Compare([]int{1}, []int{1, 2}), slices.Compare([]int{}, []int{}))
	fmt.Println("CompareFunc", slices.CompareFunc([]int{1, 2}, []int{1, 2}, cmp.Compare[int]))
	fmt.Println("Index", slices.Index(s, 2), slices.Index(s, 7), slices.IndexFunc(s, func(v int) bool { return v > 6 }))
	fmt.Println("Contains", slices.Contains(s, 9), slices.Contains(s, 4), slices.ContainsFunc(s, func(v int) bool { return v < 0 }))
	sorted := []int{1, 3, 3, 5, 7}
	i, found := slices.BinarySearch(sorted, 3)
	j, found2 := slices.BinarySearch(sorted, 4)
	fmt.Println("BinarySearch", i, found, j, found2)
	k, found3 := slices.BinarySearchFunc([]person{{"a", 10}, {"b", 20}}, 20, func(p person, age int) int { return cmp.Compare(p.age, age) })
	fmt.Println("BinarySearchFunc", k, found3)
	fmt.Println("Min Max", slices.Min(s), slices.Max(s), slices.Min([]float64{1, nan, 0}))
	fmt.Println("MinFunc MaxFunc", slices.MinFunc([]person{{"a", 3}, {"b", 1}, {"c", 1}}, byAge), slices.MaxFunc([]person{{"a", 3}, {"b", 3}}, byAge))

	// slices: building
	ins := slices.Insert([]int{1, 2, 3}, 1, 10, 11)
	fmt.Println("Insert", ins, len(ins), slices.Insert([]int{1, 2}, 2, 3))
	big := make([]int, 3, 10)
	copy(big, []int{1, 2, 3})
	big = slices.Insert(big, 1, big[2], big[0])
	fmt.Println("Insert in place", big, cap(big))
	del := []int{0, 1, 2, 3, 4}
	d := slices.Delete(del, 1, 3)
	fmt.Println("Delete", d, del)
	df := []int{0, 1, 2, 3, 4, 5}
	fmt.Println("DeleteFunc", slices.DeleteFunc(df, func(v int) bool { return v%2 == 1 }), df)
	rep := []string{"a", "b", "c", "d", "e"}
	fmt.Println("Replace", slices.Replace(slices.Clone(rep), 1, 3, "X"), slices.Replace(slices.Clone(rep), 1, 2, "X", "Y", "Z"), slices.Replace(slices.Clone(rep), 3, 5, "Q"))
	r2 := slices.Clone(rep)
	r3 := slices.Replace(r2, 1, 4, "M")
	fmt.Println("Replace zeroes", r3, strings.Join(r2, ","))
	fmt.Println("Clone", slices.Clone([]int(nil)) == nil, slices.Clone([]int{}) == nil, slices.Clone(s))
	cp := []int{1, 1, 2, 2, 2, 3, 1}
	fmt.Println("Compact", slices.Compact(cp), cp)
	fmt.Println("CompactFunc", slices.CompactFunc([]string{"a", "A", "b", "B"}, strings.EqualFold))
	g := slices.Grow([]int{1}, 10)
	fmt.Println("Grow", len(g), cap(g) >= 11)
	fmt.Println("Clip", cap(slices.Clip(g)))
	rv := []int{1, 2, 3, 4}
	slices.Reverse(rv)
	fmt.Println("Reverse", rv)
	fmt.Println("Concat", slices.Concat([]int{1}, []int{2, 3}, nil, []int{4}), slices.Concat([]int(nil), nil) == nil)
	fmt.Println("Repeat", slices.Repeat([]int{1, 2}, 3), len(slices.Repeat([]int{}, 5)))

	// slices: sorting
	ss := slices.Clone(s)
	slices.Sort(ss)
	fmt.Println("Sort", ss, slices.IsSorted(ss), slices.IsSorted(s))
	fl := []float64{3, nan, 1, negz, 0, 2}
	slices.Sort(fl)
	fmt.Println("Sort floats", fl)
	var words []string = strings.Fields("the quick brown fox jumps over the lazy dog and then some more words to sort")
	slices.SortFunc(words, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	fmt.Println("SortFunc", words, slices.IsSortedFunc(words, func(a, b string) int { return cmp.Compare(len(a), len(b)) }))
	var people []person
	for n := 0; n < 40; n++ {
		people = append(people, person{fmt.Sprint("p", n), (n * 7) % 5})
	}
	unstable := slices.Clone(people)
	slices.SortFunc(unstable, byAge)
	fmt.Println("SortFunc equal keys", unstable)
	slices.SortStableFunc(people, byAge)
	fmt.Println("SortStableFunc", people)

	// iterators
	var pairs []string
	slices.All([]string{"x", "y"})(func(i int, v string) bool { pairs = append(pairs, fmt.Sprint(i, v)); return true })
	slices.Backward([]string{"x", "y"})(func(i int, v string) bool { pairs = append(pairs, fmt.Sprint(i, v)); return true })
	fmt.Println("All Backward", pairs)
	fmt.Println("Values Collect", slices.Collect(slices.Values([]int{4, 5})), slices.Collect(countTo(0)) == nil, slices.Collect(countTo(3)))
	fmt.Println("AppendSeq", slices.AppendSeq([]int{9}, countTo(2)))
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	fmt.Println("Sorted", slices.Sorted(maps.Keys(m)), slices.Sorted(maps.Values(m)))
	fmt.Println("SortedFunc", slices.SortedFunc(maps.Keys(m), func(a, b string) int { return -strings.Compare(a, b) }))
	fmt.Println("SortedStableFunc", slices.SortedStableFunc(slices.Values(people[:6]), byAge))
	var chunks [][]int
	slices.Chunk([]int{1, 2, 3, 4, 5}, 2)(func(c []int) bool { chunks = append(chunks, c); return true })
	fmt.Println("Chunk", chunks, cap(chunks[0]))
	var firstTwo []int
	countTo(10)(func(v int) bool { firstTwo = append(firstTwo, v); return len(firstTwo) < 2 })
	fmt.Println("early stop", firstTwo)

	// maps
	fmt.Println("maps.Equal", maps.Equal(m, map[string]int{"a": 1, "b": 2, "c": 3}), maps.Equal(m, map[string]int{"a": 1}))
	fmt.Println("maps.EqualFunc", maps.EqualFunc(m, map[string]string{"a": "1", "b": "2", "c": "3"}, func(v int, w string) bool { return fmt.Sprint(v) == w }))
	c := maps.Clone(m)
	c["d"] = 4
	fmt.Println("maps.Clone", len(m), len(c), maps.Clone(map[int]int(nil)) == nil)
	dst := map[string]int{"z": 26}
	maps.Copy(dst, m)
	fmt.Println("maps.Copy", dst)
	maps.DeleteFunc(dst, func(k string, v int) bool { return v%2 == 0 })
	fmt.Println("maps.DeleteFunc", dst)
	col := maps.Collect(maps.All(m))
	fmt.Println("maps.Collect All", col)
	ins2 := map[int]string{}
	maps.Insert(ins2, slices.All([]string{"zero", "one"}))
	fmt.Println("maps.Insert", ins2)
	var total int
	maps.All(m)(func(k string, v int) bool { total += v; return true })
	fmt.Println("maps.All", total)
}
