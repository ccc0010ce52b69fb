import { buildCdkApp } from '../lib/app';

buildCdkApp();
