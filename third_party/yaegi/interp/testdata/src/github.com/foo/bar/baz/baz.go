package baz
