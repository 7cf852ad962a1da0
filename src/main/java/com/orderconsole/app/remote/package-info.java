/**
 * Remote mode: the console and the CLI reach serve's HTTP API instead of Redis and MySQL, with a person's access
 * token. Nothing here opens a connection to either store.
 */
package com.orderconsole.app.remote;
