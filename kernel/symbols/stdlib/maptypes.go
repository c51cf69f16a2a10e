package stdlib

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"log"
	"reflect"
)

func init() {
	typeOf := func(p any) reflect.Type { return reflect.TypeOf(p).Elem() }
	printers := []reflect.Type{typeOf((*fmt.Formatter)(nil)), typeOf((*fmt.Stringer)(nil))}
	for _, f := range []any{
		fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println,
		fmt.Sprint, fmt.Sprintf, fmt.Sprintln, fmt.Append, fmt.Appendf, fmt.Appendln,
		log.Fatal, log.Fatalf, log.Fatalln, log.Panic, log.Panicf, log.Panicln,
		log.Print, log.Printf, log.Println,
	} {
		MapTypes[reflect.ValueOf(f)] = printers
	}
	scanners := []reflect.Type{typeOf((*fmt.Scanner)(nil))}
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln, fmt.Fscan, fmt.Fscanf, fmt.Fscanln, fmt.Sscan, fmt.Sscanf, fmt.Sscanln} {
		MapTypes[reflect.ValueOf(f)] = scanners
	}
	MapTypes[reflect.ValueOf(json.Marshal)] = []reflect.Type{typeOf((*json.Marshaler)(nil)), typeOf((*encoding.TextMarshaler)(nil))}
	MapTypes[reflect.ValueOf(json.MarshalIndent)] = MapTypes[reflect.ValueOf(json.Marshal)]
	MapTypes[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{typeOf((*json.Unmarshaler)(nil)), typeOf((*encoding.TextUnmarshaler)(nil))}
	MapTypes[reflect.ValueOf(xml.Marshal)] = []reflect.Type{typeOf((*xml.Marshaler)(nil)), typeOf((*encoding.TextMarshaler)(nil))}
	MapTypes[reflect.ValueOf(xml.MarshalIndent)] = MapTypes[reflect.ValueOf(xml.Marshal)]
	MapTypes[reflect.ValueOf(xml.Unmarshal)] = []reflect.Type{typeOf((*xml.Unmarshaler)(nil)), typeOf((*encoding.TextUnmarshaler)(nil))}
}
