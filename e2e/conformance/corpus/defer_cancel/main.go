// defer cancel() must not cancel the context before the function (cell) ends;
// defer srv.Close() must not close the server at once.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "pong")
	}))
	defer srv.Close()
	fmt.Println("ctx.Err() before the end:", ctx.Err())
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println("request failed:", err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println("server said:", string(body))
	}
}
