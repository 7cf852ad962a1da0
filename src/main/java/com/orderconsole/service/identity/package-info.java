/**
 * People who sign in with the company's identity provider (OIDC) and act through {@code serve}: the settings that name
 * the issuer, the audience and how a claim maps to a console role, the check of a bearer access token (signature against
 * the issuer's published keys, issuer, audience, expiry), and the record in MySQL of each person seen, which the
 * follower's actor check reads.
 */
package com.orderconsole.service.identity;
