package main

import (
	"fmt"
	"net/url"
	"strings"
)

// parseDatabase is the database of a mongodb:// URL (its path), as the Node driver takes it.
func parseDatabase(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	db := strings.TrimPrefix(u.Path, "/")
	if db == "" {
		return "", fmt.Errorf("the URL names no database: %s", u.Redacted())
	}
	return db, nil
}
