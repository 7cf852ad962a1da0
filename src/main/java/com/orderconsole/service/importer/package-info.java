/** The Olist orders CSV importer (public Olist dataset, CC BY-NC-SA 4.0). */
package com.orderconsole.service.importer;
