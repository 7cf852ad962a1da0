/**
 * Who acts in a request to serve's API: an API client's opaque token or a person's OIDC access token, checked once per
 * request, and the per-address limit on failed authentications.
 */
package com.orderconsole.api.auth;
