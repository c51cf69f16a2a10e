// time.Duration arithmetic and formatting, and fixed dates (no clock reads).
package main

import (
	"fmt"
	"time"
)

func main() {
	d := 1500 * time.Millisecond
	fmt.Println(d, d.Seconds(), time.Duration(90)*time.Second, 2*time.Hour+3*time.Minute)
	t := time.Date(2024, time.February, 28, 23, 30, 0, 0, time.UTC)
	u := t.Add(48 * time.Hour)
	fmt.Println(u.Format(time.RFC3339), u.Weekday(), u.YearDay(), u.Sub(t))
	fmt.Println(t.Format("Mon Jan 2 15:04"), t.Before(u), t.Truncate(time.Hour).Minute())
	p, err := time.ParseDuration("1h15m30.5s")
	fmt.Println(p, err, p.Round(time.Minute))
}
